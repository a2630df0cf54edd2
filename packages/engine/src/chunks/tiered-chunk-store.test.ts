import { mkdtemp, open, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { afterEach, describe, expect, it } from 'vitest'
import { createHasher } from '../hashing/create-hasher'
import type { ChunkStore } from './chunk-store'
import { createLevelMetaStore } from '../meta/level-meta-store'
import { runChunkStoreConformance } from '../testing/chunk-store-conformance'
import type { ChunkStoreFixture } from '../testing/chunk-store-conformance'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { RECORD_HEADER_LENGTH } from './chunk-record'
import { createLevelChunkStore } from './level-chunk-store'
import { createPackChunkStore } from './pack-chunk-store'
import { packFileName } from './pack-file'
import { decodePackLocation } from './pack-location'
import { createTieredChunkStore } from './tiered-chunk-store'

const dirs: string[] = []
const fixtures: ChunkStoreFixture[] = []
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((f) => f.close()))
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

/** Small chunks inline in classic-level, large ones in pack files, as `Database.open({ path })` does. */
async function tieredFixture(dir: string, packSizeLimit?: number): Promise<ChunkStoreFixture> {
  const level = new ClassicLevel(join(dir, 'meta'), { keyEncoding: 'view', valueEncoding: 'view' })
  await level.open()
  const meta = createLevelMetaStore(level)
  const packsDir = join(dir, 'packs')
  const store = createTieredChunkStore({
    small: createLevelChunkStore({ meta }),
    large: await createPackChunkStore({
      dir: packsDir,
      meta,
      ...(packSizeLimit === undefined ? {} : { packSizeLimit }),
    }),
  })
  let closed = false
  const fixture: ChunkStoreFixture = {
    store,
    meta,
    entriesInHashOrder: false,
    async corrupt(hash) {
      const inline = await meta.get('chunk', hash)
      if (inline !== undefined) {
        const damaged = inline.slice()
        damaged[damaged.length - 1] = (damaged[damaged.length - 1] as number) ^ 0x10
        await meta.batch([{ type: 'put', space: 'chunk', key: hash, value: damaged }], {
          sync: true,
        })
        return
      }
      const entry = await meta.get('chunkidx', hash)
      if (entry === undefined) throw new Error('corrupt(): chunk is not committed')
      const at = decodePackLocation(entry)
      const file = await open(join(packsDir, packFileName(at.pack)), 'r+')
      const position = at.offset + RECORD_HEADER_LENGTH + (at.storedLength >> 1)
      const byte = Buffer.alloc(1)
      await file.read(byte, 0, 1, position)
      byte[0] = (byte[0] as number) ^ 0xff
      await file.write(byte, 0, 1, position)
      await file.close()
    },
    async footprint() {
      let total = 0
      for await (const [, value] of meta.iterate('chunk')) total += value.length
      for (const name of await readdir(packsDir)) total += (await stat(join(packsDir, name))).size
      return total
    },
    async reopen() {
      await fixture.close()
      const next = await tieredFixture(dir, packSizeLimit)
      fixtures.push(next)
      return next
    },
    async close() {
      if (closed) return
      closed = true
      await store.close()
      await meta.close()
    },
  }
  return fixture
}

async function newFixture(packSizeLimit?: number): Promise<ChunkStoreFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-tiered-'))
  dirs.push(dir)
  const fixture = await tieredFixture(dir, packSizeLimit)
  fixtures.push(fixture)
  return fixture
}

runChunkStoreConformance('tiered (classic-level + packs)', () => newFixture())
runChunkStoreConformance('tiered (classic-level + 64 KiB packs)', () => newFixture(64 * 1024))

describe('tiered chunk store', () => {
  it('reads a large chunk straight from packs when told its size, with no metadata miss first', async () => {
    const { store, meta } = await newFixture()
    const hasher = await createHasher('sha256')
    const small = pseudoRandomBytes(4096, 3)
    const large = pseudoRandomBytes(100_000, 4)
    const staged = [
      await store.stage(hasher.hashDomain('chunk', small), small),
      await store.stage(hasher.hashDomain('chunk', large), large),
    ]
    const ops = await store.flush()
    await meta.batch([...staged.flatMap((s) => s.ops), ...ops], { sync: true })
    store.committed()
    let chunkLookups = 0
    const get = meta.get.bind(meta)
    meta.get = (async (space: never, key: never) => {
      if (space === 'chunk') chunkLookups++
      return get(space, key)
    }) as typeof meta.get
    const largeHash = hasher.hashDomain('chunk', large)
    expect(
      Buffer.from(await store.read(largeHash, { size: large.length })).equals(Buffer.from(large)),
    ).toBe(true)
    expect(chunkLookups).toBe(0)
    expect(Buffer.from(await store.read(largeHash)).equals(Buffer.from(large))).toBe(true)
    expect(chunkLookups).toBe(1)
    const smallHash = hasher.hashDomain('chunk', small)
    expect(
      Buffer.from(await store.read(smallHash, { size: small.length })).equals(Buffer.from(small)),
    ).toBe(true)
  })

  it('reads a mix of large and small chunks with readMany, in the order asked, with one batched index read', async () => {
    const { store, meta } = await newFixture()
    const hasher = await createHasher('sha256')
    const chunks = [
      pseudoRandomBytes(100_000, 20),
      pseudoRandomBytes(4096, 21),
      pseudoRandomBytes(80_000, 22),
      pseudoRandomBytes(90_000, 23),
    ]
    const hashes = chunks.map((c) => hasher.hashDomain('chunk', c))
    const staged = []
    for (const [i, c] of chunks.entries())
      staged.push(await store.stage(hashes[i] as Uint8Array, c))
    await meta.batch([...staged.flatMap((s) => s.ops), ...(await store.flush())], { sync: true })
    store.committed()
    let pointLookups = 0
    const get = meta.get.bind(meta)
    meta.get = (async (space: never, key: never) => {
      if (space === 'chunkidx') pointLookups++
      return get(space, key)
    }) as typeof meta.get
    const read = await store.readMany?.(hashes, { sizes: chunks.map((c) => c.length) })
    expect(read?.map((b, i) => Buffer.compare(b, chunks[i] as Uint8Array))).toEqual([0, 0, 0, 0])
    expect(pointLookups).toBe(0)
    // Sizes claiming a small chunk is large: the miss in packs falls back to reading each one.
    const claimed = await store.readMany?.([hashes[1], hashes[0]] as Uint8Array[], {
      sizes: [100_000, 100_000],
    })
    expect(
      claimed?.map((b, i) => Buffer.compare(b, [chunks[1], chunks[0]][i] as Uint8Array)),
    ).toEqual([0, 0])
  })

  it('keeps small chunks in the metadata store and large ones in packs, with no pack fsync for small groups', async () => {
    const { store, meta } = await newFixture()
    const hasher = await createHasher('sha256')
    const small = pseudoRandomBytes(4096, 1)
    const large = pseudoRandomBytes(100_000, 2)
    const smallHash = hasher.hashDomain('chunk', small)
    const largeHash = hasher.hashDomain('chunk', large)
    const smallStage = await store.stage(smallHash, small)
    expect(smallStage.ops.map((op) => op.space)).toEqual(['chunk'])
    expect(await store.flush()).toEqual([])
    await meta.batch(smallStage.ops, { sync: true })
    const largeStage = await store.stage(largeHash, large)
    expect(largeStage.ops.map((op) => op.space)).toEqual(['chunkidx'])
    const flushOps = await store.flush()
    expect(flushOps.length).toBeGreaterThan(0)
    await meta.batch([...largeStage.ops, ...flushOps], { sync: true })
    store.committed()
    expect(Buffer.from(await store.read(smallHash)).equals(small)).toBe(true)
    expect(Buffer.from(await store.read(largeHash)).equals(large)).toBe(true)
  })

  it('lists each tier in hash order and removes a chunk from whichever tier holds it', async () => {
    const { store, meta } = await newFixture(64 * 1024)
    const hasher = await createHasher('sha256')
    const chunks = Array.from({ length: 12 }, (_, i) =>
      pseudoRandomBytes(i % 2 ? 4000 + i : 40_000 + i, 10 + i),
    )
    const staged = await Promise.all(
      chunks.map((c) => store.stage(hasher.hashDomain('chunk', c), c)),
    )
    await meta.batch([...staged.flatMap((s) => s.ops), ...(await store.flush())], { sync: true })
    store.committed()
    const listed: string[] = []
    for await (const { hash } of store.entries()) listed.push(Buffer.from(hash).toString('hex'))
    const small = chunks.filter((c) => c.length <= 16 * 1024)
    const hexOf = (c: Uint8Array) => Buffer.from(hasher.hashDomain('chunk', c)).toString('hex')
    expect(listed.slice(0, small.length)).toEqual(small.map(hexOf).sort())
    expect(listed.slice(small.length)).toEqual(
      chunks
        .filter((c) => !small.includes(c))
        .map(hexOf)
        .sort(),
    )

    const ops = store.removeOps(hasher.hashDomain('chunk', chunks[0] as Uint8Array))
    expect(ops.map((op) => `${op.type} ${op.space}`)).toEqual(['del chunk', 'del chunkidx'])
  })

  it('serves hot small chunks from its cache, as copies, and drops them when removed', async () => {
    const { store, meta } = await newFixture(64 * 1024)
    const hasher = await createHasher('sha256')
    const bytes = pseudoRandomBytes(4096, 7)
    const hash = hasher.hashDomain('chunk', bytes)
    const staged = await store.stage(hash, bytes)
    await meta.batch([...staged.ops, ...(await store.flush())], { sync: true })
    store.committed()
    const first = await store.read(hash)
    first.fill(0)
    // The record is gone from storage behind the store's back: only the cache can answer.
    await meta.batch([{ type: 'del', space: 'chunk', key: hash }], { sync: true })
    const again = await store.read(hash)
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true)
    await expect(store.read(hash, { bypassCache: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    store.removeOps(hash)
    await expect(store.read(hash)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('counts the pack bytes of removed large chunks as dead', async () => {
    const { store, meta } = await newFixture()
    const hasher = await createHasher('sha256')
    const large = [pseudoRandomBytes(100_000, 30), pseudoRandomBytes(100_000, 31)]
    const small = pseudoRandomBytes(1000, 32)
    const staged = await Promise.all(
      [...large, small].map((c) => store.stage(hasher.hashDomain('chunk', c), c)),
    )
    await meta.batch([...staged.flatMap((s) => s.ops), ...(await store.flush())], { sync: true })
    store.committed()
    const removeOps = [large[0], small].flatMap((c) =>
      store.removeOps(hasher.hashDomain('chunk', c as Uint8Array)),
    )
    await meta.batch(removeOps, { sync: true })
    const report = await store.compact({ commit: (ops) => meta.batch(ops, { sync: true }) })
    // One pack, still being appended to: nothing is rewritten, the removed record is dead.
    expect(report).toEqual({
      packsRewritten: 0,
      packsRemoved: 0,
      movedBytes: 0,
      reclaimedBytes: 0,
      deadBytes: staged[0]?.storedBytes,
    })
  })

  it('starts the compaction of both tiers at the call and sums their reports', async () => {
    const started: string[] = []
    const tier = (name: string, deadBytes: number): ChunkStore =>
      ({
        compact: async () => {
          started.push(name)
          return { packsRewritten: 1, packsRemoved: 2, movedBytes: 3, reclaimedBytes: 4, deadBytes }
        },
      }) as unknown as ChunkStore
    const store = createTieredChunkStore({ small: tier('small', 0), large: tier('large', 10) })
    const pending = store.compact({ commit: async () => undefined })
    expect(started).toEqual(['small', 'large'])
    expect(await pending).toEqual({
      packsRewritten: 2,
      packsRemoved: 4,
      movedBytes: 6,
      reclaimedBytes: 8,
      deadBytes: 10,
    })
  })
})
