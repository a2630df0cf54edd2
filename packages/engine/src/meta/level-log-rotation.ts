import { readdir, statfs } from 'node:fs/promises'
import { EngineError } from '../errors'

/** The parts of a classic-level database that {@link logRotationOf} needs. */
interface OnDiskLevel {
  location: string
  compactRange(start: Uint8Array, end: Uint8Array): Promise<void>
  getProperty(property: string): string
}

// Above every key the engine writes (sublevel prefixes are `!name!`): compacting this empty
// range touches no table, only the memtable.
const EMPTY_RANGE_KEY = new Uint8Array([0xff, 0xff, 0xff, 0xff])
/** Room kept beyond the memtable's size for the manifest and the new log. */
const ROTATION_MARGIN_BYTES = 1024 * 1024

async function newestLogNumber(dir: string): Promise<number> {
  let newest = -1
  for (const name of await readdir(dir)) {
    const match = /^(\d+)\.log$/.exec(name)
    if (match !== null) newest = Math.max(newest, Number(match[1]))
  }
  return newest
}

const stillFull = () =>
  Object.assign(new Error('not enough free space to start a new metadata log'), { code: 'ENOSPC' })

/**
 * How to make a LevelDB database on disk (classic-level) stop appending to its current log:
 * a compaction writes the memtable to a table and starts a new log file. `undefined` for
 * databases with no log on disk (memory-level).
 *
 * The returned function first checks that the device has room for the memtable: a table
 * write that fails for lack of space makes LevelDB refuse every later write until it is
 * reopened, so it is only tried once space was freed. It throws an `ENOSPC` error while the
 * device is still full, and `INSUFFICIENT_STORAGE` asking for a restart when LevelDB did not
 * start a new log although there was room (its background error is sticky).
 */
export function logRotationOf(db: unknown): (() => Promise<void>) | undefined {
  const candidate = db as Partial<OnDiskLevel>
  if (
    typeof candidate.location !== 'string' ||
    typeof candidate.compactRange !== 'function' ||
    typeof candidate.getProperty !== 'function'
  ) {
    return undefined
  }
  const level = candidate as OnDiskLevel
  return async () => {
    const memtable = Number(level.getProperty('leveldb.approximate-memory-usage')) || 0
    const fs = await statfs(level.location)
    if (fs.bavail * fs.bsize < memtable + ROTATION_MARGIN_BYTES) throw stillFull()
    const before = await newestLogNumber(level.location)
    // Resolves even when LevelDB could not switch logs: the directory tells.
    await level.compactRange(EMPTY_RANGE_KEY, EMPTY_RANGE_KEY)
    if ((await newestLogNumber(level.location)) > before) return
    throw new EngineError(
      'INSUFFICIENT_STORAGE',
      'the metadata store stopped writing after the device holding the database directory ' +
        'ran out of space; reads still work, and writes work again once the server is restarted',
    )
  }
}
