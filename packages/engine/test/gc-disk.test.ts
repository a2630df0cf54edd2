import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Database, isEngineError } from '../src/index'

const MiB = 1024 * 1024
const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

async function packBytes(dir: string): Promise<number> {
  let total = 0
  for (const name of await readdir(join(dir, 'packs')))
    total += (await stat(join(dir, 'packs', name))).size
  return total
}

describe('gc on disk', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-gc-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('runs while writers keep writing, and every acknowledged file reads back', async () => {
    const db = await Database.open({ path: dir, versionLogLimit: 4, packSizeLimit: 2 * MiB })
    const expected = new Map<string, string>()
    let stop = false
    let writes = 0
    const writer = async (id: number) => {
      for (let i = 0; !stop; i++) {
        const path = `/w${id}/f${i % 7}`
        // Mixed sizes: small chunks inline in LevelDB, large ones in packs; some content
        // repeats, so writes dedup against chunks that may just have become garbage.
        const size = i % 3 === 0 ? 300_000 : 2_000
        const seed = i % 5
        const bytes = Buffer.alloc(size, `${id}-${seed}-`)
        if (i % 4 === 3) {
          await db.delete(path).catch((err: unknown) => {
            if (!isEngineError(err, 'NOT_FOUND')) throw err
          })
          expected.delete(path)
        } else {
          await db.writeFile(path, bytes)
          expected.set(path, digest(bytes))
        }
        writes++
      }
    }
    const writers = [writer(1), writer(2)]
    const results = []
    for (let round = 0; round < 5; round++) {
      const before = writes
      results.push(await db.gc())
      // Each collection overlaps writes, and writes go on between collections.
      while (writes < before + 30) await new Promise((resolve) => setTimeout(resolve, 5))
      await db.snapshots.create(`round-${round}`)
    }
    stop = true
    await Promise.all(writers)
    expect(results.some((r) => r.garbageEntries > 0)).toBe(true)
    // Compaction got its turn between writes (new ones held back briefly) every time.
    expect(results.every((r) => r.compaction !== null)).toBe(true)
    for (const [path, hash] of expected) expect(digest(await db.readFile(path))).toBe(hash)
    const verified = await db.verify()
    expect(verified).toMatchObject({ ok: true, missing: [], corrupt: [] })
    // Snapshots taken between collections are whole.
    for (let round = 0; round < 5; round++) {
      for await (const entry of db.at({ snapshot: `round-${round}` }).list('/', { depth: -1 }))
        expect((await db.at({ snapshot: `round-${round}` }).readFile(entry.path)).length).toBe(
          entry.size,
        )
    }
    await db.close()
    const reopened = await Database.open({ path: dir })
    expect((await reopened.verify()).ok).toBe(true)
    await reopened.close()
  }, 60_000)

  it('compacts packs: dead bytes are given back and void_space goes down', async () => {
    const db = await Database.open({ path: dir, versionLogLimit: 1, packSizeLimit: 1 * MiB })
    await db.writeFile('/exists', 'small')
    // A failed write leaves its chunks in packs, unreferenced: void space.
    const failed = await db
      .writeFile('/exists', randomBytes(3 * MiB), { ifNoneMatch: '*' })
      .catch((err: unknown) => err)
    expect(isEngineError(failed, 'PRECONDITION_FAILED')).toBe(true)
    // Overwritten data becomes garbage once the version log has moved on.
    await db.writeFile('/old.bin', randomBytes(2 * MiB))
    await db.delete('/old.bin')
    const live = randomBytes(2 * MiB)
    await db.writeFile('/live.bin', live)
    await db.writeFile('/tick', '1')
    const voidBefore = db.stats().sizes.voidSpace
    expect(voidBefore).toBeGreaterThan(2 * MiB)
    const diskBefore = await packBytes(dir)

    const dry = await db.gc({ dryRun: true })
    expect(dry.compaction).toBeNull()
    expect(await packBytes(dir)).toBe(diskBefore)
    const result = await db.gc()
    expect(result.reclaimedBytes).toBeGreaterThan(2 * MiB) // /old.bin's chunks
    expect(result.compaction?.packsRemoved).toBeGreaterThan(0)
    const diskAfter = await packBytes(dir)
    expect(diskBefore - diskAfter).toBeGreaterThan(4 * MiB) // void + garbage, minus copies
    expect(db.stats().sizes.voidSpace).toBeLessThan(voidBefore)
    expect(db.stats().sizes.voidSpace).toBe(result.compaction?.deadBytes)
    expect(Buffer.from(await db.readFile('/live.bin')).equals(live)).toBe(true)
    expect((await db.verify()).ok).toBe(true)
    await db.close()
    const reopened = await Database.open({ path: dir })
    expect(Buffer.from(await reopened.readFile('/live.bin')).equals(live)).toBe(true)
    expect(reopened.stats().sizes.voidSpace).toBe(result.compaction?.deadBytes)
    await reopened.close()
  })
})
