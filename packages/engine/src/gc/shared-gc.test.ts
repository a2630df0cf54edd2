import { randomBytes } from 'node:crypto'
import { MemoryLevel } from 'memory-level'
import { afterEach, describe, expect, it } from 'vitest'
import { openMemoryDatabase } from '../../test/engine-test-kit'
import { unclosedView } from '../../test/support/shared-meta-store'
import { createBlobChunkStore } from '../chunks/blob-chunk-store'
import { blobTombstone } from '../chunks/blob-chunk-entry'
import type { BlobStore } from '../chunks/blob-store'
import { createMemoryBlobStore } from '../chunks/memory-blob-store'
import { createLocalLeaseTable, localLeases } from '../cluster/local-leases'
import type { Leases } from '../cluster/leases'
import { Database } from '../database'
import { isEngineError } from '../errors'
import { createHasher } from '../hashing/create-hasher'
import { parseHash, toHex } from '../internal/hex'
import { createLevelMetaStore } from '../meta/level-meta-store'
import type { MetaStore } from '../meta/meta-store'

const GRACE = 60_000

/** A clock the test moves. */
function testClock(start = 1_000_000) {
  let now = start
  return {
    now: () => now,
    advance(ms: number) {
      now += ms
    },
  }
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise
    return undefined
  } catch (err) {
    if (isEngineError(err)) return err.code
    throw err
  }
}

async function chunkOf(bytes: Uint8Array): Promise<string> {
  return toHex((await createHasher('sha256')).hashDomain('chunk', bytes))
}

interface Cluster {
  a: Database
  b: Database
  leasesA: Leases
  leasesB: Leases
  meta: MetaStore
  blobs: BlobStore
  clock: ReturnType<typeof testClock>
}

const open: Cluster[] = []

afterEach(async () => {
  for (const c of open.splice(0)) {
    await c.a.close()
    await c.b.close()
    await c.leasesA.close()
    await c.leasesB.close()
    await c.meta.close()
  }
})

/**
 * Two nodes of one shared database on a metadata store in memory, with one lease table (so
 * their `gc` locks exclude each other). Chunks in the metadata store, or (`blob`) in one blob
 * store in memory.
 */
async function twoNodes(chunks: 'level' | 'blob' = 'level'): Promise<Cluster> {
  const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
  await level.open()
  const meta = createLevelMetaStore(level)
  const blobs = createMemoryBlobStore()
  const clock = testClock()
  const table = createLocalLeaseTable()
  const leasesA = localLeases(table, clock)
  const leasesB = localLeases(table, clock)
  const node = (leases: Leases) => {
    const view = unclosedView(meta)
    return Database.open({
      meta: view,
      shared: true,
      clock,
      leases,
      gcGraceMs: GRACE,
      versionLogLimit: 0,
      ...(chunks === 'blob'
        ? {
            chunks: createBlobChunkStore({
              meta: view,
              blobs,
              lastSeen: { clock, refreshMs: GRACE / 4 },
            }),
          }
        : {}),
    })
  }
  const a = await node(leasesA)
  const b = await node(leasesB)
  const cluster = { a, b, leasesA, leasesB, meta, blobs, clock }
  open.push(cluster)
  return cluster
}

describe('GC of a shared database', () => {
  it('spares a chunk another node put but did not commit, within the grace period', async () => {
    const { a, b, clock } = await twoNodes()
    const bytes = randomBytes(2000)
    const hash = await chunkOf(bytes)
    await b.putChunk(hash, bytes)
    clock.advance(GRACE - 1)
    await a.gc()
    expect(await b.missingChunks([hash])).toEqual([])
    await b.writeChunks('/kept.bin', [{ hash, size: bytes.length }])
    expect(Buffer.from(await a.readFile('/kept.bin')).equals(bytes)).toBe(true)
  })

  it('collects that chunk once the grace period has passed', async () => {
    const { a, b, clock } = await twoNodes()
    const bytes = randomBytes(2000)
    const hash = await chunkOf(bytes)
    await b.putChunk(hash, bytes)
    clock.advance(GRACE + 1)
    const result = await a.gc()
    expect(result.garbageEntries).toBe(1)
    expect(result.reclaimedBytes).toBeGreaterThan(0)
    expect(await b.missingChunks([hash])).toEqual([hash])
    expect(await codeOf(b.readChunk(hash))).toBe('NOT_FOUND')
  })

  it('spares a chunk a node reused (confirmed present) after it was put, for the grace from then', async () => {
    const { a, b, clock } = await twoNodes()
    const bytes = randomBytes(2000)
    const hash = await chunkOf(bytes)
    await b.putChunk(hash, bytes)
    clock.advance(GRACE / 2)
    // Another upload on B finds it stored: last_seen is refreshed (A knows nothing of either).
    expect(await b.missingChunks([hash])).toEqual([])
    clock.advance(GRACE / 2 + 1)
    await a.gc()
    await b.writeChunks('/reused.bin', [{ hash, size: bytes.length }])
    expect(Buffer.from(await a.readFile('/reused.bin')).equals(bytes)).toBe(true)
  })

  it('collects what no version names, objects included, and keeps what HEAD names', async () => {
    const { a, b, clock } = await twoNodes()
    const gone = randomBytes(3000)
    const kept = randomBytes(3000)
    await b.writeFile('/gone.bin', gone)
    await b.writeFile('/kept.bin', kept)
    await b.delete('/gone.bin')
    clock.advance(GRACE + 1)
    const before = (await a.refresh(), a.stats())
    const result = await a.gc()
    expect(result.garbageEntries).toBeGreaterThanOrEqual(2)
    expect(await b.missingChunks([await chunkOf(gone)])).toEqual([await chunkOf(gone)])
    expect(Buffer.from(await b.readFile('/kept.bin')).equals(kept)).toBe(true)
    await b.refresh()
    expect(b.stats().counts.chunks).toBe(before.counts.chunks - 1)
    const verified = await b.verify()
    expect(verified.ok).toBe(true)
  })

  it('refuses with CONFLICT while another node holds the gc lock, and runs after', async () => {
    const { a, leasesB } = await twoNodes()
    let release = () => undefined as void
    const held = leasesB.withLock('gc', () => new Promise<void>((r) => (release = r)))
    expect(await codeOf(a.gc())).toBe('CONFLICT')
    release()
    await held
    expect((await a.gc()).dryRun).toBe(false)
  })

  it('stops when its lock is lost (ABORTED), removing nothing more', async () => {
    const { a, b, leasesA, clock } = await twoNodes()
    await b.writeFile('/x.bin', randomBytes(3000))
    await b.delete('/x.bin')
    clock.advance(GRACE + 1)
    const run = a.gc({
      onProgress: async (p) => {
        if (p.phase === 'scan') await leasesA.close()
      },
    })
    expect(await codeOf(run)).toBe('ABORTED')
  })

  it('does not remove a chunk a node reuses while the sweep runs (the reuse wins)', async () => {
    const { a, b, clock } = await twoNodes()
    const bytes = randomBytes(2000)
    const hash = await chunkOf(bytes)
    await b.putChunk(hash, bytes)
    clock.advance(GRACE + 1)
    let reused = false
    const result = await a.gc({
      onProgress: async (p) => {
        if (p.phase !== 'sweep' || reused) return
        reused = true
        // B's upload names the chunk between A's scan and its sweep batch.
        await b.writeChunks('/late.bin', [{ hash, size: bytes.length }])
      },
    })
    expect(reused).toBe(true)
    expect(result.garbageEntries).toBe(0)
    expect(Buffer.from(await a.readFile('/late.bin')).equals(bytes)).toBe(true)
  })

  it('removes nothing another node committed after the marking (the commit token guards each batch)', async () => {
    const { a, b, clock } = await twoNodes()
    await b.writeFile('/old.bin', randomBytes(3000))
    await b.delete('/old.bin')
    clock.advance(GRACE + 1)
    const fresh = randomBytes(3000)
    let wrote = false
    const result = await a.gc({
      onProgress: async (p) => {
        if (p.phase !== 'scan' || wrote) return
        wrote = true
        // Committed after A marked, before it lists objects: its new objects look unmarked.
        await b.writeFile('/new/deep/fresh.bin', fresh)
      },
    })
    expect(wrote).toBe(true)
    expect(result.garbageEntries).toBeGreaterThanOrEqual(2)
    expect(Buffer.from(await a.readFile('/new/deep/fresh.bin')).equals(fresh)).toBe(true)
    expect((await a.verify()).ok).toBe(true)
  })

  it('is refused with CONFLICT without leases', async () => {
    const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    const db = await Database.open({ meta: createLevelMetaStore(level), shared: true })
    expect(await codeOf(db.gc())).toBe('CONFLICT')
    await db.close()
  })

  it('refuses a grace shorter than twice the chunk store refresh with RangeError', async () => {
    const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    const meta = createLevelMetaStore(level)
    const chunks = createBlobChunkStore({
      meta,
      blobs: createMemoryBlobStore(),
      lastSeen: { refreshMs: 10_000 },
    })
    await expect(Database.open({ meta, chunks, shared: true, gcGraceMs: 15_000 })).rejects.toThrow(
      RangeError,
    )
  })
})

describe('GC of a shared database with chunks in a blob store', () => {
  it('spares uncommitted chunks in the grace, then deletes index entry and object', async () => {
    const { a, b, blobs, clock } = await twoNodes('blob')
    const bytes = randomBytes(5000)
    const hash = await chunkOf(bytes)
    await b.putChunk(hash, bytes)
    await a.gc()
    expect(await b.missingChunks([hash])).toEqual([])
    clock.advance(GRACE + 1)
    const result = await a.gc()
    expect(result.garbageEntries).toBe(1)
    expect(await b.missingChunks([hash])).toEqual([hash])
    const left: string[] = []
    for await (const info of blobs.list('chunks/')) left.push(info.key)
    expect(left).toEqual([])
    // Uploaded again after the collection: stored and readable.
    expect(await b.putChunk(hash, bytes)).toEqual({ isNew: true })
    expect(Buffer.from(await a.readChunk(hash)).equals(bytes)).toBe(true)
  })

  it('makes a stage wait while a tombstone stands, and upload once it is gone', async () => {
    const { b, meta, clock } = await twoNodes('blob')
    const bytes = randomBytes(5000)
    const hash = await chunkOf(bytes)
    const key = parseHash(hash)
    await meta.batch([{ type: 'put', space: 'chunkidx', key, value: blobTombstone(clock.now()) }], {
      sync: true,
    })
    expect(await b.missingChunks([hash])).toEqual([hash])
    let done = false
    const put = b.putChunk(hash, bytes).then((r) => {
      done = true
      return r
    })
    await new Promise((r) => setTimeout(r, 250))
    expect(done).toBe(false)
    await meta.batch([{ type: 'del', space: 'chunkidx', key }], { sync: true })
    expect(await put).toEqual({ isNew: true })
    expect(Buffer.from(await b.readChunk(hash)).equals(bytes)).toBe(true)
  })
})

describe('GC of a shared database during an import that commits chunks as it goes', () => {
  it('refuses the import, applying nothing, when another node collected chunks it committed', async () => {
    const { a, b, clock } = await twoNodes()
    const { db: source } = await openMemoryDatabase()
    await source.writeFile('/big.bin', randomBytes(1_000_000))
    const parts: Uint8Array[] = []
    for await (const part of source.exportArchive()) parts.push(part)
    await source.close()
    const archive = Buffer.concat(parts)
    const cut = Math.floor(archive.length * 0.7)
    let paused = (): void => undefined
    const reached = new Promise<void>((resolve) => (paused = resolve))
    let resume = (): void => undefined
    const gate = new Promise<void>((resolve) => (resume = resolve))
    async function* slowly() {
      yield archive.subarray(0, cut)
      paused()
      await gate
      yield archive.subarray(cut)
    }
    const before = b.head()
    const importing = codeOf(b.importArchive(slowly(), { promote: true, commitChunksEvery: 1 }))
    await reached
    // Long enough for B's early chunks to look abandoned to A, which knows nothing of B's lease.
    clock.advance(GRACE + 1)
    expect((await a.gc()).garbageEntries).toBeGreaterThan(0)
    resume()
    expect(await importing).toBe('INVALID_ARCHIVE')
    expect(b.head()).toBe(before)
    expect((await b.verify()).ok).toBe(true)
  })
})
