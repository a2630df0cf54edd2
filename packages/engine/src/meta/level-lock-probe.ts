import { ClassicLevel } from 'classic-level'

/**
 * True when another process holds the LevelDB directory `dir`. Opens it with
 * `createIfMissing: false` and `errorIfExists: true`, so LevelDB takes the lock and then
 * refuses before reading or writing any data file either way; the only traces are the ones
 * every LevelDB open leaves (`LOCK` created if absent, `LOG` rotated to `LOG.old`).
 */
export async function isLevelLocked(dir: string): Promise<boolean> {
  const probe = new ClassicLevel(dir, { createIfMissing: false, errorIfExists: true })
  try {
    await probe.open()
  } catch (err) {
    const e = err as { code?: unknown; cause?: { code?: unknown } }
    return e.code === 'LEVEL_LOCKED' || e.cause?.code === 'LEVEL_LOCKED'
  }
  // Not reached with these options; close what opened all the same.
  await probe.close()
  return false
}
