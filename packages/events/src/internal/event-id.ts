/** The two parts of an event id `<boot>-<seq>`. */
export interface EventIdParts {
  boot: string
  seq: number
}

const BOOT_ID = /^[0-9a-z]{1,32}$/
const EVENT_ID = /^([0-9a-z]{1,32})-([1-9][0-9]{0,15})$/

/** True when `boot` can be the boot part of an event id (1–32 of `0-9a-z`). */
export function isBootId(boot: string): boolean {
  return BOOT_ID.test(boot)
}

/**
 * A boot id that sorts after earlier ones: the start time in base 36 (8 digits until the year
 * 5188) followed by four random base-36 digits, so two processes started in the same
 * millisecond still differ.
 */
export function createBootId(now: number): string {
  const random = new Uint32Array(1)
  globalThis.crypto.getRandomValues(random)
  const suffix = ((random[0] ?? 0) % 36 ** 4).toString(36).padStart(4, '0')
  return `${Math.max(0, Math.floor(now)).toString(36).padStart(8, '0')}${suffix}`
}

/** Formats `<boot>-<seq>`. */
export function formatEventId(boot: string, seq: number): string {
  return `${boot}-${seq}`
}

/** Splits an event id; undefined when it is not of the form `<boot>-<seq>` with seq ≥ 1. */
export function parseEventId(id: string): EventIdParts | undefined {
  const match = EVENT_ID.exec(id)
  if (match === null) return undefined
  const seq = Number(match[2])
  if (!Number.isSafeInteger(seq)) return undefined
  return { boot: match[1] as string, seq }
}
