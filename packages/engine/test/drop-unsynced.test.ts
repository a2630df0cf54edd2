import { describe, expect, it } from 'vitest'
import type { Database } from '../src/database'
import type { GcResult } from '../src/gc/collect-garbage'
import { isEngineError } from '../src/errors'
import { pseudoRandomBytes } from '../src/testing/pseudo-random-bytes'
import { createSimulatedFileSystem } from '../src/testing/simulated-file-system'
import type { SimulatedFileSystem } from '../src/testing/simulated-file-system'
import { fileBytes, freezeLevel, newLevel, openSimulated } from './simulated-disk'
import type { SimulatedLevel } from './simulated-disk'

let lastGc: GcResult | undefined

/** One step of the workload and what it leaves at a path once acknowledged (null: deleted). */
interface Step {
  name: string
  run(db: Database): Promise<unknown>
  effect?: { path: string; bytes: Uint8Array | null }
}

const write = (path: string, seed: number, size?: number): Step => {
  const bytes = size === undefined ? fileBytes(seed) : pseudoRandomBytes(size, seed)
  return { name: `write ${path}`, run: (db) => db.writeFile(path, bytes), effect: { path, bytes } }
}

const remove = (path: string): Step => ({
  name: `delete ${path}`,
  run: (db) => db.delete(path),
  effect: { path, bytes: null },
})

// Writes across several packs, an overwrite, a delete and a GC that sweeps and compacts, so
// every pack-store path (append, rotation, flush, compaction copy, removal) meets the crash.
const WORKLOAD: Step[] = [
  // Three one-chunk files share a pack; deleting two makes it a pack to rewrite.
  write('/p1', 11, 40_000),
  write('/p2', 12, 40_000),
  write('/p3', 13, 40_000),
  write('/a', 1),
  write('/b', 2),
  { name: 'snapshot', run: (db) => db.snapshots.create('s1') },
  write('/c', 3),
  remove('/a'),
  remove('/p1'),
  remove('/p2'),
  write('/b', 4),
  { name: 'drop snapshot', run: (db) => db.snapshots.delete('s1') },
  {
    name: 'gc',
    run: async (db) => {
      lastGc = await db.gc()
    },
  },
  write('/d', 5),
  {
    name: 'write /e (inline)',
    run: (db) => db.writeFile('/e', new Uint8Array(900).fill(7)),
    effect: { path: '/e', bytes: new Uint8Array(900).fill(7) },
  },
]

interface Outcome {
  /** Every acknowledged effect, in order, as of the crash. */
  acked: Step['effect'][]
  /** The step in flight at the crash, which may or may not have landed. */
  inFlight: Step | undefined
  /** The metadata as of the crash. */
  level: () => Promise<SimulatedLevel>
  files: SimulatedFileSystem
}

/** Runs the workload, crashing at file operation `n`; undefined if it finished first. */
async function runUntilCrash(n: number): Promise<Outcome | undefined> {
  const files = createSimulatedFileSystem()
  const level = newLevel()
  const acked: Step['effect'][] = []
  let current: Step | undefined
  let outcome: Outcome | undefined
  let signal: () => void = () => undefined
  const crashed = new Promise<void>((resolve) => (signal = resolve))
  files.crashAt(n, () => {
    outcome = { acked: [...acked], inFlight: current, level: freezeLevel(level), files }
    signal()
  })
  const work = (async () => {
    const db = await openSimulated(files, level)
    for (const step of WORKLOAD) {
      current = step
      await step.run(db)
      if (files.crashed) return
      acked.push(step.effect)
    }
    current = undefined
    await db.close()
  })()
  await Promise.race([work, crashed])
  return outcome
}

/** What each path must read after the crash: the acknowledged bytes, or the step in flight's. */
function allowed(outcome: Outcome): Map<string, (Uint8Array | null)[]> {
  const paths = new Map<string, (Uint8Array | null)[]>()
  for (const effect of outcome.acked)
    if (effect !== undefined) paths.set(effect.path, [effect.bytes])
  const pending = outcome.inFlight?.effect
  if (pending !== undefined)
    paths.set(pending.path, [...(paths.get(pending.path) ?? [null]), pending.bytes])
  return paths
}

async function read(db: Database, path: string): Promise<Uint8Array | null> {
  try {
    return await db.readFile(path)
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND')) return null
    throw err
  }
}

async function checkRecovered(outcome: Outcome, n: number): Promise<void> {
  const db = await openSimulated(outcome.files.afterCrash(), await outcome.level())
  const where = `crash at operation ${n} during ${outcome.inFlight?.name ?? 'open'}`
  try {
    for (const [path, options] of allowed(outcome)) {
      const bytes = await read(db, path)
      const match = options.some((o) =>
        o === null || bytes === null ? o === bytes : Buffer.compare(o, bytes) === 0,
      )
      expect(match, `${where}: ${path}`).toBe(true)
    }
    expect((await db.verify()).ok, `${where}: verify`).toBe(true)
    await db.gc()
    expect((await db.verify()).ok, `${where}: verify after gc`).toBe(true)
    expect((await db.gc({ dryRun: true })).garbageEntries, `${where}: garbage left`).toBe(0)
    // The recovered store takes new writes (new packs must not collide with what survived).
    const next = fileBytes(99)
    await db.writeFile('/after', next)
    expect(Buffer.compare(await db.readFile('/after'), next), where).toBe(0)
  } finally {
    await db.close()
  }
}

describe('drop-unsynced crash tier', () => {
  it('keeps every acknowledged write and delete through a power loss at every file operation', async () => {
    const files = createSimulatedFileSystem()
    const db = await openSimulated(files, newLevel())
    for (const step of WORKLOAD) await step.run(db)
    await db.close()
    const total = files.operations
    // The workload must reach the compaction copy for the crash points to mean anything.
    expect(lastGc?.compaction?.movedBytes).toBeGreaterThan(0)
    expect(total).toBeGreaterThan(30)

    let crashes = 0
    for (let n = 1; n <= total; n++) {
      const outcome = await runUntilCrash(n)
      if (outcome === undefined) continue
      crashes++
      await checkRecovered(outcome, n)
    }
    expect(crashes).toBeGreaterThan(30)
  }, 60_000)
})
