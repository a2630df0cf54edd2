// The auth package's copy of the engine's crash points (auth may not import the engine; the
// same SVCDB_CRASH_AT variable drives both): a named place where the crash tests kill the
// process, inert unless `SVCDB_CRASH_AT=<point>:<n>` is set.

/** A named crash point of the auth package. */
export type AuthCrashPointName = 'mid-token-rotation'

const match =
  typeof process === 'undefined'
    ? null
    : /^([a-z-]+):([1-9]\d{0,8})$/.exec(process.env.SVCDB_CRASH_AT ?? '')
const crashAt = match === null ? undefined : { name: match[1], hit: Number(match[2]) }
let hits = 0

/** Kills the process with SIGKILL the n-th time `name` is reached under `SVCDB_CRASH_AT`. */
export function crashPoint(name: AuthCrashPointName): void {
  if (crashAt === undefined || crashAt.name !== name) return
  if (++hits === crashAt.hit) process.kill(process.pid, 'SIGKILL')
}
