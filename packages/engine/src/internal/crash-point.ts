/**
 * The named places where the crash tests kill the process (`SVCDB_CRASH_AT=<point>:<n>`):
 * each is a moment where a crash must leave the database openable, verifiable and with every
 * acknowledged write intact.
 */
export const CRASH_POINTS = [
  'after-chunk-append',
  'after-pack-fdatasync',
  'before-meta-batch',
  'after-meta-batch',
  'mid-gc-sweep',
  'mid-compaction',
  'mid-import',
  'mid-head-log-write',
] as const

/** A named crash point of the engine. */
export type CrashPointName = (typeof CRASH_POINTS)[number]

const CRASH_AT = /^([a-z-]+):([1-9]\d{0,8})$/

/** The point and the hit to die at, read once: unset (every run but a crash test's) is inert. */
function target(value: string | undefined): { name: string; hit: number } | undefined {
  const match = value === undefined ? null : CRASH_AT.exec(value)
  return match === null ? undefined : { name: match[1] as string, hit: Number(match[2]) }
}

const crashAt = target(typeof process === 'undefined' ? undefined : process.env.SVCDB_CRASH_AT)
let hits = 0

/**
 * Kills the process with SIGKILL the n-th time `name` is reached when `SVCDB_CRASH_AT` is
 * `<name>:<n>`: a real crash, with no `finally`, no flush and no exit handlers. Otherwise it
 * does nothing but compare one module-level value.
 */
export function crashPoint(name: CrashPointName): void {
  if (crashAt === undefined || crashAt.name !== name) return
  if (++hits === crashAt.hit) process.kill(process.pid, 'SIGKILL')
}
