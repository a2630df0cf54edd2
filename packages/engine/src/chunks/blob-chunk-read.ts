import { EngineError, isEngineError } from '../errors'
import type { MetaStore } from '../meta/meta-store'
import type { BlobChunkCache } from './blob-chunk-cache'
import type { BlobStore } from './blob-store'
import { blobChunkKey } from './blob-chunk-key'
import { decodeBlobChunkEntry, isBlobTombstone } from './blob-chunk-entry'
import type { BlobChunkEntry } from './blob-chunk-entry'
import { assertChunkHash, openChunkRecord } from './chunk-record'
import type { StagingTable } from './staging-table'

/** A chunk a blob chunk store staged: its entry, and the size of its object. */
export interface BlobStaged {
  entry: BlobChunkEntry
  objectSize: number
}

/** What reads use of their blob chunk store. */
export interface BlobReadContext {
  table: StagingTable<BlobStaged>
  meta: MetaStore
  blobs: BlobStore
  /** Object GETs in flight at most, per `readMany` call. */
  readConcurrency: number
  /** The node-local copy of objects, if any. */
  cache: BlobChunkCache | undefined
  /** GETs under way for the cache, by key: concurrent readers of one chunk share one. */
  inflight: Map<string, Promise<Uint8Array | undefined>>
  assertOpen(): void
  ioError(action: string, err: unknown): unknown
}

const notFound = (hash: Uint8Array): EngineError =>
  new EngineError('NOT_FOUND', `chunk ${Buffer.from(hash).toString('hex')} is not stored`)

/** The object of a chunk's key, or `undefined`; service failures become `IO_ERROR`. */
async function getObject(context: BlobReadContext, key: string): Promise<Uint8Array | undefined> {
  try {
    return await context.blobs.get(key)
  } catch (err) {
    throw context.ioError(`get of ${key}`, err)
  }
}

/** The raw bytes of an object read for `entry`: framing, index fields and CRC checked. */
async function openObject(
  hash: Uint8Array,
  entry: BlobChunkEntry,
  key: string,
  object: Uint8Array | undefined,
): Promise<Uint8Array> {
  if (object === undefined) {
    throw new EngineError('CONTENT_CORRUPT', `chunk object ${key} is indexed but missing`)
  }
  try {
    return await openChunkRecord(object, { hash, ...entry })
  } catch (err) {
    if (!isEngineError(err, 'CONTENT_CORRUPT')) throw err
    throw new EngineError('CONTENT_CORRUPT', `chunk object ${key}: ${err.message}`, { cause: err })
  }
}

/** An object as loaded: from the cache, or fetched (with the bytes to cache once verified). */
interface Loaded {
  object: Uint8Array | undefined
  cached?: boolean
  fill?: Uint8Array
}

/** One GET of `key` shared by concurrent readers, each given its own copy. */
async function sharedGet(context: BlobReadContext, key: string): Promise<Loaded> {
  const running = context.inflight.get(key)
  if (running !== undefined) return { object: (await running)?.slice() }
  const get = getObject(context, key)
  context.inflight.set(key, get)
  try {
    const object = await get
    // The shared bytes go to the cache (nobody changes them); the reader gets a copy.
    return object === undefined ? { object } : { object: object.slice(), fill: object }
  } finally {
    context.inflight.delete(key)
  }
}

/** The chunk's object: the cached copy when there is one, else a GET. */
async function loadObject(
  context: BlobReadContext,
  hash: Uint8Array,
  key: string,
): Promise<Loaded> {
  if (context.cache === undefined) return { object: await getObject(context, key) }
  const cached = await context.cache.get(hash)
  return cached === undefined ? sharedGet(context, key) : { object: cached, cached: true }
}

/**
 * The raw bytes of a loaded object, checked as {@link openObject} checks. A cached copy that
 * fails is deleted and the object fetched again; a fetched one that passes is cached.
 */
async function openLoaded(
  context: BlobReadContext,
  hash: Uint8Array,
  entry: BlobChunkEntry,
  key: string,
  loaded: Loaded,
): Promise<Uint8Array> {
  if (loaded.cached === true) {
    try {
      return await openObject(hash, entry, key, loaded.object)
    } catch (err) {
      if (!isEngineError(err, 'CONTENT_CORRUPT')) throw err
      await context.cache?.drop(hash)
      return openLoaded(context, hash, entry, key, await sharedGet(context, key))
    }
  }
  const raw = await openObject(hash, entry, key, loaded.object)
  if (loaded.fill !== undefined) context.cache?.fill(hash, loaded.fill)
  return raw
}

/**
 * Reads one chunk: a staged one from its entry, else the index entry and the object (cached
 * or fetched) side by side (one round trip of latency; a missing chunk costs a wasted GET,
 * which is rare). Nothing is returned that the index or the staging table does not hold.
 */
export async function readBlobChunk(
  context: BlobReadContext,
  hash: Uint8Array,
): Promise<Uint8Array> {
  context.assertOpen()
  assertChunkHash(hash)
  const key = blobChunkKey(hash)
  const staged = await context.table.settled(hash)
  if (staged !== undefined) {
    return openLoaded(context, hash, staged.entry, key, await loadObject(context, hash, key))
  }
  const [indexed, loaded] = await Promise.all([
    context.meta.get('chunkidx', hash),
    loadObject(context, hash, key),
  ])
  if (indexed === undefined || isBlobTombstone(indexed)) throw notFound(hash)
  return openLoaded(context, hash, decodeBlobChunkEntry(indexed), key, loaded)
}

/**
 * Reads several chunks: every entry first (staged ones from the table, the rest in one index
 * read; a missing chunk fails the call before any GET), then the objects, at most
 * `readConcurrency` at a time. The first failure stops new GETs and rejects the call.
 */
export async function readBlobChunks(
  context: BlobReadContext,
  hashes: readonly Uint8Array[],
): Promise<Uint8Array[]> {
  context.assertOpen()
  for (const hash of hashes) assertChunkHash(hash)
  const entries: (BlobChunkEntry | undefined)[] = (
    await Promise.all(hashes.map((hash) => context.table.settled(hash)))
  ).map((staged) => staged?.entry)
  const unknown = entries.flatMap((entry, i) => (entry === undefined ? [i] : []))
  if (unknown.length > 0) {
    const indexed = await context.meta.getMany(
      'chunkidx',
      unknown.map((i) => hashes[i] as Uint8Array),
    )
    unknown.forEach((at, j) => {
      const value = indexed[j]
      if (value === undefined || isBlobTombstone(value)) throw notFound(hashes[at] as Uint8Array)
      entries[at] = decodeBlobChunkEntry(value)
    })
  }
  const out = new Array<Uint8Array>(hashes.length)
  let next = 0
  let failed = false
  const worker = async (): Promise<void> => {
    while (!failed && next < hashes.length) {
      const i = next++
      const hash = hashes[i] as Uint8Array
      const key = blobChunkKey(hash)
      try {
        const entry = entries[i] as BlobChunkEntry
        out[i] = await openLoaded(context, hash, entry, key, await loadObject(context, hash, key))
      } catch (err) {
        failed = true
        throw err
      }
    }
  }
  const workers = Math.min(context.readConcurrency, hashes.length)
  await Promise.all(Array.from({ length: workers }, worker))
  return out
}
