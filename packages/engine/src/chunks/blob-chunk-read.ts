import { EngineError, isEngineError } from '../errors'
import type { MetaStore } from '../meta/meta-store'
import type { BlobStore } from './blob-store'
import { blobChunkKey } from './blob-chunk-key'
import { decodeBlobChunkEntry } from './blob-chunk-entry'
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

/**
 * Reads one chunk: a staged one from its entry, else the index entry and the object fetched
 * side by side (one round trip of latency; a missing chunk costs a wasted GET, which is rare).
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
    return openObject(hash, staged.entry, key, await getObject(context, key))
  }
  const [indexed, object] = await Promise.all([
    context.meta.get('chunkidx', hash),
    getObject(context, key),
  ])
  if (indexed === undefined) throw notFound(hash)
  return openObject(hash, decodeBlobChunkEntry(indexed), key, object)
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
      if (value === undefined) throw notFound(hashes[at] as Uint8Array)
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
        out[i] = await openObject(
          hash,
          entries[i] as BlobChunkEntry,
          key,
          await getObject(context, key),
        )
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
