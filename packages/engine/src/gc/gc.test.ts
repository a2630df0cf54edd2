import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openMemoryDatabase, rejectsWith, text } from '../../test/engine-test-kit'
import type { Database } from '../database'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

describe('gc (memory-level)', () => {
  let db: Database
  let kit: Awaited<ReturnType<typeof openMemoryDatabase>>
  beforeEach(async () => {
    kit = await openMemoryDatabase(1_700_000_000_000, { versionLogLimit: 2 })
    db = kit.db
  })
  afterEach(() => db.close())

  /** Writes, overwrites and deletes, leaving garbage once the tiny log window has moved on. */
  async function makeGarbage() {
    await db.writeFile('/keep.bin', pseudoRandomBytes(50_000, 1))
    await db.writeFile('/old.bin', pseudoRandomBytes(50_000, 2))
    await db.snapshots.create('kept')
    await db.writeFile('/gone.bin', pseudoRandomBytes(50_000, 3))
    await db.writeFile('/gone.bin', pseudoRandomBytes(50_000, 4))
    await db.delete('/gone.bin')
    await db.forks.create('f')
    await db.fork('f').writeFile('/fork.bin', pseudoRandomBytes(30_000, 5))
    await db.writeFile('/a', '1')
    await db.writeFile('/b', '2')
    await db.writeFile('/c', '3')
  }

  async function expectIntact() {
    expect(Buffer.from(await db.readFile('/keep.bin'))).toEqual(
      Buffer.from(pseudoRandomBytes(50_000, 1)),
    )
    expect(Buffer.from(await db.at({ snapshot: 'kept' }).readFile('/old.bin'))).toEqual(
      Buffer.from(pseudoRandomBytes(50_000, 2)),
    )
    expect(Buffer.from(await db.fork('f').readFile('/fork.bin'))).toEqual(
      Buffer.from(pseudoRandomBytes(30_000, 5)),
    )
    expect(text(await db.readFile('/c'))).toBe('3')
  }

  it('dry run reports garbage and deletes nothing; a real run reclaims exactly it', async () => {
    await makeGarbage()
    const keys = { obj: await kit.countKeys('obj'), chunk: await kit.countKeys('chunk') }
    const dry = await db.gc({ dryRun: true })
    expect(dry.dryRun).toBe(true)
    expect(dry.garbageEntries).toBeGreaterThan(0)
    expect(dry.reclaimedBytes).toBeGreaterThan(100_000) // the two versions of /gone.bin
    expect({ obj: await kit.countKeys('obj'), chunk: await kit.countKeys('chunk') }).toEqual(keys)

    const chunksBefore = db.stats().counts.chunks
    const real = await db.gc()
    expect(real).toMatchObject({
      dryRun: false,
      garbageEntries: dry.garbageEntries,
      reclaimedBytes: dry.reclaimedBytes,
      liveEntries: dry.liveEntries,
    })
    expect(real.versionsScanned).toBeGreaterThanOrEqual(4) // HEAD, snapshot, fork, log
    const after = { obj: await kit.countKeys('obj'), chunk: await kit.countKeys('chunk') }
    expect(after.obj + after.chunk).toBe(keys.obj + keys.chunk - real.garbageEntries)
    expect(db.stats().counts.chunks).toBe(after.chunk)
    expect(db.stats().counts.chunks).toBeLessThan(chunksBefore)
    expect(db.stats().health.gcLastReclaimedBytes).toBe(real.reclaimedBytes)
    await expectIntact()
    // Nothing left to collect; rewriting reclaimed content stores it again.
    expect((await db.gc()).garbageEntries).toBe(0)
    await db.writeFile('/again.bin', pseudoRandomBytes(50_000, 3))
    expect(Buffer.from(await db.readFile('/again.bin'))).toEqual(
      Buffer.from(pseudoRandomBytes(50_000, 3)),
    )
  })

  it('never reclaims what a write committed after marking began reuses', async () => {
    await db.writeFile('/victim.bin', pseudoRandomBytes(40_000, 7))
    await db.delete('/victim.bin')
    for (const name of ['/x', '/y', '/z']) await db.writeFile(name, name)
    let revived = false
    const result = await db.gc({
      onProgress: async (p) => {
        // Marked already: the victim's chunk is garbage as far as the mark knows.
        if (p.phase === 'scan' && !revived) {
          revived = true
          await db.writeFile('/revived.bin', pseudoRandomBytes(40_000, 7))
        }
      },
    })
    expect(revived).toBe(true)
    expect(Buffer.from(await db.readFile('/revived.bin'))).toEqual(
      Buffer.from(pseudoRandomBytes(40_000, 7)),
    )
    expect(result.garbageEntries).toBeGreaterThan(0)
  })

  it('never reclaims chunks an unfinished upload already reuses', async () => {
    // Over two 1.25 MiB batches: ingest stages whole batches during the sweep
    // while the upload still waits for its end.
    const content = pseudoRandomBytes(2_700_000, 8)
    await db.writeFile('/victim.bin', content)
    await db.delete('/victim.bin')
    for (const name of ['/x', '/y', '/z']) await db.writeFile(name, name)
    let release = (): void => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    let upload: Promise<unknown> | undefined
    async function* slowSource() {
      yield content
      await held
    }
    await db.gc({
      onProgress: async (p) => {
        if (p.phase === 'sweep' && upload === undefined) {
          upload = db.writeFile('/uploaded.bin', slowSource())
          // Let the upload cut and stage every chunk but the last, which waits for the end.
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      },
    })
    release()
    await upload
    // equals, not toEqual: vitest compares 2.7 MB byte by byte in about 14 s.
    expect(Buffer.from(await db.readFile('/uploaded.bin')).equals(content)).toBe(true)
  }, 30_000)

  it('keeps versions pinned by a running export, and restores from versions GC could see', async () => {
    await db.writeFile('/doc', 'v1')
    const v1 = db.head()
    await db.writeFile('/doc', 'v2')
    const exporting = db.exportArchive({ version: v1 })
    const first = await exporting.next()
    expect(first.done).toBe(false)
    for (const name of ['/p', '/q', '/r']) await db.writeFile(name, name)
    // v1 has left the log window: only the export's pin holds it.
    await db.gc()
    const rest: Uint8Array[] = []
    for await (const part of exporting) rest.push(part)
    const { db: copy } = await openMemoryDatabase()
    const bytes = Buffer.concat([first.value as Uint8Array, ...rest])
    expect((await copy.importArchive(bytes, { promote: true })).versionHash).toBe(v1)
    expect(text(await copy.readFile('/doc'))).toBe('v1')
    await copy.close()
    // Once the export is done, the version is garbage.
    await db.gc()
    await rejectsWith(db.at(v1).readFile('/doc'), 'NOT_FOUND')
  })

  it('keeps an imported version that was not promoted', async () => {
    const { db: source } = await openMemoryDatabase()
    await source.writeFile('/imported', 'from elsewhere')
    const bytes = Buffer.concat(
      await (async () => {
        const out: Uint8Array[] = []
        for await (const p of source.exportArchive()) out.push(p)
        return out
      })(),
    )
    const version = source.head()
    await source.close()
    await db.importArchive(bytes)
    for (const name of ['/p', '/q', '/r']) await db.writeFile(name, name)
    await db.gc()
    await db.promote(version)
    expect(text(await db.readFile('/imported'))).toBe('from elsewhere')
  })

  it('runs one at a time, and cancels cleanly', async () => {
    await makeGarbage()
    const first = db.gc()
    await rejectsWith(db.gc(), 'CONFLICT')
    await first
    await makeGarbage().catch(() => undefined)
    const controller = new AbortController()
    const cancelled = db.gc({
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'scan') controller.abort()
      },
    })
    await rejectsWith(cancelled, 'ABORTED')
    await expectIntact()
    expect((await db.gc()).dryRun).toBe(false)
    await expectIntact()
  })
})
