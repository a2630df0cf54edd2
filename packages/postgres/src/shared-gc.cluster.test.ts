import { createHash, randomBytes } from 'node:crypto'
import {
  createBlobChunkStore,
  createLevelChunkStore,
  createMemoryBlobStore,
  createTieredChunkStore,
  Database,
  isEngineError,
} from '@svcdb/engine'
import type { BlobStore, Leases, MetaStore } from '@svcdb/engine'
import { afterEach, describe, expect, it } from 'vitest'
import { createPostgresLeases } from './postgres-leases'
import { openStore } from './test-nodes'
import { databaseUrl, testSchemas } from './test-schema'

const newSchema = testSchemas()
const GRACE = 60_000

interface Node {
  db: Database
  leases: Leases
}

const opened: Node[] = []
afterEach(async () => {
  for (const node of opened.splice(0)) {
    await node.db.close()
    await node.leases.close()
  }
})

/** A chunk id as the engine computes it (sha256 of "chunk:" + bytes). */
function chunkId(bytes: Uint8Array): string {
  return createHash('sha256').update('chunk:').update(bytes).digest('hex')
}

/**
 * Two nodes sharing one schema (each with its own metadata store and leases, as two
 * processes would) and one blob store: small chunks in PostgreSQL, larger ones in blobs,
 * every store recording last_seen on a clock the test moves.
 */
async function twoNodes() {
  const schema = newSchema()
  const blobs = createMemoryBlobStore()
  let now = Date.now()
  const clock = { now: () => now }
  const node = async (id: string): Promise<Node> => {
    const meta: MetaStore = await openStore(schema)
    const lastSeen = { clock, refreshMs: GRACE / 4 }
    const chunks = createTieredChunkStore({
      small: createLevelChunkStore({ meta, lastSeen }),
      large: createBlobChunkStore({ meta, blobs, lastSeen }),
      inlineBytes: 4096,
    })
    const leases = await createPostgresLeases({
      connectionString: databaseUrl(),
      schema,
      nodeId: id,
    })
    const db = await Database.open({
      meta,
      chunks,
      shared: true,
      clock,
      leases,
      gcGraceMs: GRACE,
      versionLogLimit: 0,
    })
    const made = { db, leases }
    opened.push(made)
    return made
  }
  const [a, b] = [await node('node-a'), await node('node-b')]
  return { a, b, blobs, advance: (ms: number) => (now += ms) }
}

async function objectKeys(blobs: BlobStore): Promise<string[]> {
  const keys: string[] = []
  for await (const info of blobs.list('chunks/')) keys.push(info.key)
  return keys
}

describe('GC of a database shared by two nodes on PostgreSQL', () => {
  it('spares chunks another node put within the grace, then removes rows and objects', async () => {
    const { a, b, blobs, advance } = await twoNodes()
    const small = randomBytes(1000)
    const large = randomBytes(20_000)
    await b.db.putChunk(chunkId(small), small)
    await b.db.putChunk(chunkId(large), large)
    expect(await objectKeys(blobs)).toHaveLength(1)
    await a.db.gc()
    expect(await b.db.missingChunks([chunkId(small), chunkId(large)])).toEqual([])

    advance(GRACE + 1)
    const result = await a.db.gc()
    expect(result.garbageEntries).toBe(2)
    expect(await b.db.missingChunks([chunkId(small), chunkId(large)])).toEqual([
      chunkId(small),
      chunkId(large),
    ])
    expect(await objectKeys(blobs)).toEqual([])
  })

  it('keeps what a version names and what a node reused', async () => {
    const { a, b, advance } = await twoNodes()
    const named = randomBytes(30_000)
    await b.db.writeFile('/named.bin', named)
    const reused = randomBytes(20_000)
    await a.db.putChunk(chunkId(reused), reused)
    advance(GRACE / 2)
    expect(await b.db.missingChunks([chunkId(reused)])).toEqual([])
    advance(GRACE / 2 + 1)
    await a.db.gc()
    await b.db.writeChunks('/reused.bin', [{ hash: chunkId(reused), size: reused.length }])
    expect(Buffer.from(await a.db.readFile('/named.bin')).equals(named)).toBe(true)
    expect(Buffer.from(await a.db.readFile('/reused.bin')).equals(reused)).toBe(true)
    expect((await a.db.verify()).ok).toBe(true)
  })

  it('fails with CONFLICT on one node while the other holds the gc lock', async () => {
    const { a, b } = await twoNodes()
    let release = (): void => undefined
    let acquired = (): void => undefined
    const taken = new Promise<void>((r) => (acquired = r))
    // `fn` runs once the lock is held: from then on a's GC must be refused.
    const held = b.leases.withLock('gc', () => {
      acquired()
      return new Promise<void>((r) => (release = r))
    })
    await taken
    const code = await a.db.gc().then(
      () => undefined,
      (err: unknown) => (isEngineError(err) ? err.code : 'other'),
    )
    expect(code).toBe('CONFLICT')
    release()
    await held
    expect((await a.db.gc()).dryRun).toBe(false)
  })
})
