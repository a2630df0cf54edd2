import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { Database } from '../src/database'
import { isEngineError } from '../src/errors'
import type { GcResult } from '../src/gc/collect-garbage'
import { pseudoRandomBytes } from '../src/testing/pseudo-random-bytes'
import { createSimulatedFileSystem } from '../src/testing/simulated-file-system'
import type { SimulatedFaultCode, SimulatedFileSystem } from '../src/testing/simulated-file-system'
import { collect } from './engine-test-kit'
import { fileBytes, newLevel, openSimulated } from './simulated-disk'
import type { SimulatedLevel } from './simulated-disk'

const CODES: Record<SimulatedFaultCode, 'IO_ERROR' | 'INSUFFICIENT_STORAGE'> = {
  EIO: 'IO_ERROR',
  ENOSPC: 'INSUFFICIENT_STORAGE',
}

const BIG = pseudoRandomBytes(400 * 1024, 42)

/** A fault scenario: state before, the operation under fault, and what must hold after it. */
interface Scenario {
  setup(db: Database): Promise<void>
  operation(db: Database): Promise<unknown>
  /** What must hold after the operation failed (nothing of it visible). */
  unchanged(db: Database): Promise<void>
  /** What must hold once it succeeded. */
  done(db: Database): Promise<void>
}

async function absent(db: Database, path: string): Promise<void> {
  const found = await db.readFile(path).then(
    () => true,
    (err: unknown) => {
      if (isEngineError(err, 'NOT_FOUND')) return false
      throw err
    },
  )
  expect(found, `${path} must be absent`).toBe(false)
}

async function same(db: Database, path: string, bytes: Uint8Array): Promise<void> {
  expect(Buffer.compare(await db.readFile(path), bytes), path).toBe(0)
}

/** Runs `scenario` with no fault; returns how many file operations its operation made. */
async function countOperations(scenario: Scenario): Promise<{ total: number; result: unknown }> {
  const files = createSimulatedFileSystem()
  const db = await openSimulated(files, newLevel())
  await scenario.setup(db)
  const before = files.operations
  const result = await scenario.operation(db)
  const total = files.operations - before
  await scenario.done(db)
  await db.close()
  return { total, result }
}

async function faultAt(
  scenario: Scenario,
  n: number,
  code: SimulatedFaultCode,
): Promise<{ files: SimulatedFileSystem; level: SimulatedLevel }> {
  const files = createSimulatedFileSystem()
  const level = newLevel()
  const db = await openSimulated(files, level)
  const where = `${code} from operation ${n}`
  try {
    await scenario.setup(db)
    const head = db.head()
    files.failFrom(files.operations + n, code)
    const err = await scenario.operation(db).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isEngineError(err, CODES[code]), `${where}: got ${String(err)}`).toBe(true)
    expect(db.head(), where).toBe(head)
    await scenario.unchanged(db)
    files.lift()
    await scenario.operation(db)
    await scenario.done(db)
  } finally {
    files.lift()
    await db.close()
  }
  return { files, level }
}

/**
 * Injects each fault at every file operation of the scenario's operation; returns the number
 * of operations and what the operation returned without a fault.
 */
async function runScenario(scenario: Scenario): Promise<{ total: number; result: unknown }> {
  const { total, result } = await countOperations(scenario)
  for (let n = 1; n <= total; n++) {
    for (const code of ['EIO', 'ENOSPC'] as const) {
      const { files, level } = await faultAt(scenario, n, code)
      // Reopened (a clean restart), the database verifies clean.
      const db = await openSimulated(files, level)
      try {
        expect((await db.verify()).ok, `${code} at ${n}: verify`).toBe(true)
        await scenario.done(db)
      } finally {
        await db.close()
      }
    }
  }
  return { total, result }
}

describe('I/O faults on the pack files', () => {
  it('fails a multi-chunk write with a clear error at every write and sync, and leaves no trace', async () => {
    const { total } = await runScenario({
      setup: (db) => db.writeFile('/keep', fileBytes(1)).then(() => undefined),
      operation: (db) => db.writeFile('/big', BIG),
      unchanged: (db) => absent(db, '/big'),
      done: async (db) => {
        await same(db, '/big', BIG)
        await same(db, '/keep', fileBytes(1))
      },
    })
    expect(total).toBeGreaterThan(8)
  }, 60_000)

  it('fails an import with a clear error at every write and sync, leaving HEAD as it was', async () => {
    const source = await Database.open({
      level: new MemoryLevel<Uint8Array, Uint8Array>({
        keyEncoding: 'view',
        valueEncoding: 'view',
      }),
    })
    await source.writeFile('/imported/big', BIG)
    await source.writeFile('/imported/other', fileBytes(2))
    const archive = Buffer.concat(await collect(source.exportArchive()))
    await source.close()
    const { total } = await runScenario({
      setup: (db) => db.writeFile('/keep', fileBytes(1)).then(() => undefined),
      operation: (db) => db.importArchive(archive, { promote: true }),
      unchanged: async (db) => {
        await absent(db, '/imported/big')
        await same(db, '/keep', fileBytes(1))
      },
      done: async (db) => {
        await same(db, '/imported/big', BIG)
        await same(db, '/imported/other', fileBytes(2))
      },
    })
    expect(total).toBeGreaterThan(8)
  }, 60_000)

  it('fails a GC with compaction with a clear error at every write and sync; live files stay whole', async () => {
    const small = [11, 12, 13].map((seed) => pseudoRandomBytes(40_000, seed))
    const { total, result } = await runScenario({
      async setup(db) {
        // Three one-chunk files share a pack; deleting two leaves a pack to rewrite.
        for (const [i, bytes] of small.entries()) await db.writeFile(`/p${i}`, bytes)
        await db.writeFile('/big', BIG)
        await db.delete('/p0')
        await db.delete('/p1')
        await db.writeFile('/after', fileBytes(3))
      },
      operation: (db) => db.gc(),
      unchanged: async (db) => {
        await same(db, '/p2', small[2] as Uint8Array)
        await same(db, '/big', BIG)
      },
      done: async (db) => {
        await same(db, '/p2', small[2] as Uint8Array)
        await same(db, '/big', BIG)
        await same(db, '/after', fileBytes(3))
      },
    })
    // Without a fault the collection rewrites a pack: the faults hit the copy, its sync, the
    // commit's and the removal of the old packs.
    expect((result as GcResult).compaction?.packsRewritten).toBeGreaterThan(0)
    expect(total).toBeGreaterThan(2)
  }, 60_000)
})
