import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Database, isEngineError } from '../src/index'
import { pseudoRandomBytes } from '../src/testing/pseudo-random-bytes'
import { CRASH_DATABASE_OPTIONS, crashFileBytes } from './crash-point-scenarios'
import { collect } from './engine-test-kit'
import { spawnFixture } from './spawn-fixture'

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/** The seeded files: three one-chunk files sharing a pack, and two of several chunks. */
const BASE = new Map<string, Uint8Array>([
  ['/base/p0', pseudoRandomBytes(40_000, 1)],
  ['/base/p1', pseudoRandomBytes(40_000, 2)],
  ['/base/p2', pseudoRandomBytes(40_000, 3)],
  ['/base/big0', crashFileBytes(4)],
  ['/base/big1', crashFileBytes(5)],
])

/** Each named point, the hit to die at and the work of the child that reaches it. */
const CASES: { at: string; scenario: 'write' | 'gc' | 'import' | 'promote' }[] = [
  { at: 'after-chunk-append:3', scenario: 'write' },
  { at: 'after-pack-fdatasync:2', scenario: 'write' },
  { at: 'before-meta-batch:2', scenario: 'write' },
  { at: 'after-meta-batch:2', scenario: 'write' },
  { at: 'mid-gc-sweep:1', scenario: 'gc' },
  { at: 'mid-compaction:1', scenario: 'gc' },
  { at: 'mid-compaction:2', scenario: 'gc' },
  { at: 'mid-import:1', scenario: 'import' },
  { at: 'mid-head-log-write:1', scenario: 'promote' },
]

interface ChildRun {
  signal: NodeJS.Signals | null
  acked: Map<string, string>
  deleted: Set<string>
  stderr: string
}

/** Runs the worker with SVCDB_CRASH_AT set; collects what it acknowledged before it died. */
function runWorker(args: string[], at: string): Promise<ChildRun> {
  const child = spawnFixture('crash-point-worker', args, { SVCDB_CRASH_AT: at })
  const run: ChildRun = { signal: null, acked: new Map(), deleted: new Set(), stderr: '' }
  let buffered = ''
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString()
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const line of lines) {
      const [tag, path, hash] = line.split(' ')
      if (tag === 'ack' && path !== undefined && hash !== undefined) run.acked.set(path, hash)
      if (tag === 'del' && path !== undefined) run.deleted.add(path)
    }
  })
  child.stderr.on('data', (d: Buffer) => (run.stderr += d.toString()))
  return new Promise((resolve) =>
    child.once('close', (_code, signal) => resolve({ ...run, signal })),
  )
}

const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
})

/** A seeded database directory and, beside it, an archive of another database to import. */
async function seed(): Promise<{ dir: string; archive: string }> {
  const root = await mkdtemp(join(tmpdir(), 'svcdb-crash-point-'))
  dirs.push(root)
  const dir = join(root, 'db')
  const db = await Database.open({ path: dir, ...CRASH_DATABASE_OPTIONS })
  for (const [path, bytes] of BASE) await db.writeFile(path, bytes)
  await db.close()
  const source = await Database.open({ path: join(root, 'source') })
  await source.writeFile('/imported/a', crashFileBytes(50))
  await source.writeFile('/imported/b', crashFileBytes(51))
  const archive = join(root, 'import.svcdb')
  await writeFile(archive, Buffer.concat(await collect(source.exportArchive())))
  await source.close()
  return { dir, archive }
}

// One child at a time: eight tsx processes at once would starve the rest of the suite.
describe('named crash points', () => {
  for (const { at, scenario } of CASES) {
    it(`${at}: the database opens, verifies, keeps acknowledged work, and GC reclaims orphans`, async () => {
      const { dir, archive } = await seed()
      const run = await runWorker([dir, scenario, archive], at)
      // Killed at the point, not finished nor failed: the point was reached.
      expect(run.signal, run.stderr).toBe('SIGKILL')

      const db = await Database.open({ path: dir, ...CRASH_DATABASE_OPTIONS })
      try {
        expect((await db.verify()).ok).toBe(true)
        for (const [path, bytes] of BASE) {
          if (run.deleted.has(path)) {
            await expect(db.readFile(path)).rejects.toSatisfy((e) => isEngineError(e, 'NOT_FOUND'))
          } else {
            expect(sha(await db.readFile(path)), path).toBe(sha(bytes))
          }
        }
        for (const [path, hash] of run.acked) expect(sha(await db.readFile(path)), path).toBe(hash)
        if (scenario === 'write' || scenario === 'promote')
          expect(run.acked.size).toBeGreaterThan(0)
        if (scenario === 'promote') {
          // The promote never committed: HEAD still holds the newer file, the log is empty.
          expect((await db.headLog()).items).toEqual([])
        }
        if (scenario === 'import') {
          // Nothing committed: the staged chunks are orphans for GC.
          await expect(db.readFile('/imported/a')).rejects.toSatisfy((e) =>
            isEngineError(e, 'NOT_FOUND'),
          )
        }

        const gc = await db.gc()
        expect(gc.compaction).not.toBeNull()
        expect((await db.verify()).ok).toBe(true)
        expect((await db.gc({ dryRun: true })).garbageEntries).toBe(0)
        // And the store still takes writes.
        await db.writeFile('/after', crashFileBytes(77))
        expect(sha(await db.readFile('/after'))).toBe(sha(crashFileBytes(77)))
      } finally {
        await db.close()
      }
    }, 30_000)
  }
})
