import type { ChangePosition } from '../change-log'

/** The parts of a change event id `<log>.<seq>.<part>`. */
export interface ChangeEventIdParts {
  log: string
  position: ChangePosition
}

const CHANGE_EVENT_ID = /^([0-9a-z]{1,32})\.(0|[1-9][0-9]{0,15})\.(0|[1-9][0-9]{0,15})$/

/** Formats `<log>.<seq>.<part>`: the id a change event has on every node. */
export function formatChangeEventId(log: string, position: ChangePosition): string {
  return `${log}.${position.seq}.${position.part}`
}

/** Splits a change event id; undefined when `id` is not of the form `<log>.<seq>.<part>`. */
export function parseChangeEventId(id: string): ChangeEventIdParts | undefined {
  const match = CHANGE_EVENT_ID.exec(id)
  if (match === null) return undefined
  const seq = Number(match[2])
  const part = Number(match[3])
  if (!Number.isSafeInteger(seq) || !Number.isSafeInteger(part)) return undefined
  return { log: match[1] as string, position: { seq, part } }
}

/** True when `position` holds non-negative safe integers. */
export function isChangePosition(position: ChangePosition): boolean {
  return (
    Number.isSafeInteger(position.seq) &&
    position.seq >= 0 &&
    Number.isSafeInteger(position.part) &&
    position.part >= 0
  )
}
