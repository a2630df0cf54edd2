import { throwIfAborted } from '../errors'
import type { ChunkStore, StageItem, StageResult } from '../chunks/chunk-store'
import { CHUNK_SIZES } from '../chunking/fastcdc'
import type { Lease } from '../commit/gc-fence'
import type { Hasher } from '../hashing/hasher'
import type { MetaOp } from '../meta/meta-store'
import type { ChunkRef } from '../objects/tree-objects'
import { streamBatches, wholeBatches } from './chunk-batches'
import type { ChunkBatch } from './chunk-batches'
import { leadingBytes } from './write-data'
import type { WriteData } from './write-data'

/** Batches staged at once per upload: hashing the next overlaps the I/O of the last. */
const BATCH_WINDOW = 2

/** What ingesting a file's content produced. */
export interface Ingested {
  chunks: ChunkRef[]
  size: number
  /** Merkle content hash: hash of `content:` followed by the chunk ids, in order. */
  contentHash: Uint8Array
  /** Index ops of the chunks, to commit with the file. */
  ops: MetaOp[]
  newChunks: number
  newRawBytes: number
  newStoredBytes: number
}

const CONTENT_PREFIX = new TextEncoder().encode('content:')

/**
 * Streams content through the chunker, hashes each chunk and stages it in the chunk store,
 * {@link BATCH_BYTES} at a time. Memory is bounded by the batch size (plus one chunk) times
 * the batch window, whatever the size of the content.
 *
 * Content of at most the chunker's minimum size is one chunk whatever its bytes (the chunker
 * never cuts before it), so it is staged at once, without the chunker: the same chunk, the
 * same hashes.
 *
 * The content hash is computed from the chunk ids rather than by hashing every byte twice:
 * it is as unique as a plain hash, costs nothing extra, and clients that chunk with the same
 * chunker compute it the same way.
 */
export async function ingest(
  data: WriteData,
  chunks: ChunkStore,
  hasher: Hasher,
  options: { signal?: AbortSignal | undefined; lease?: Lease } = {},
): Promise<Ingested> {
  const { signal, lease } = options
  const content = hasher.createStream()
  content.update(CONTENT_PREFIX)
  const out: Ingested = {
    chunks: [],
    size: 0,
    contentHash: new Uint8Array(),
    ops: [],
    newChunks: 0,
    newRawBytes: 0,
    newStoredBytes: 0,
  }
  const inflight: Promise<void>[] = []

  /** Hashes a batch's chunks and stages them together (see `ChunkStore.stageMany`). */
  const stage = async ({ chunks: parts, release }: ChunkBatch) => {
    const items: StageItem[] = []
    for (const bytes of parts) {
      const hash = hasher.hashDomain('chunk', bytes)
      content.update(hash)
      out.chunks.push({ hash, size: bytes.length })
      out.size += bytes.length
      // Pinned before the store checks for the chunk, so GC cannot delete a chunk this file
      // is about to reuse (see GcFence).
      const sweeping = lease?.add(hash)
      if (sweeping !== undefined) await sweeping
      items.push({ hash, bytes })
    }
    inflight.push(
      stageAll(chunks, items)
        .then((results) =>
          results.forEach((result, i) => {
            for (const op of result.ops) out.ops.push(op)
            if (result.isNew) {
              out.newChunks++
              out.newRawBytes += (items[i] as StageItem).bytes.length
              out.newStoredBytes += result.storedBytes
            }
          }),
        )
        .finally(release),
    )
    if (inflight.length >= BATCH_WINDOW) await inflight.shift()
  }

  // Every staged write settles before returning, so no I/O outlives a failed upload.
  const settle = async () => {
    const settled = await Promise.allSettled(inflight.splice(0))
    return settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  }
  try {
    if (data instanceof Uint8Array) {
      for (const batch of wholeBatches(data)) {
        throwIfAborted(signal, 'the write')
        await stage(batch)
      }
    } else {
      const head = await leadingBytes(data, CHUNK_SIZES.minSize, signal)
      if (head.whole !== undefined) {
        if (head.whole.length > 0) await stage({ chunks: [head.whole], release: () => undefined })
      } else {
        for await (const batch of streamBatches(head.rest, signal)) await stage(batch)
      }
    }
  } catch (err) {
    await settle()
    throw err
  }
  const failed = await settle()
  if (failed !== undefined) throw failed.reason
  out.contentHash = content.digest()
  return out
}

/**
 * Stages `items` together when the store can, else one by one. Settles only once every stage
 * has (the chunks' memory is reused afterwards), with the first failure if any.
 */
async function stageAll(store: ChunkStore, items: StageItem[]): Promise<StageResult[]> {
  if (store.stageMany !== undefined) return store.stageMany(items)
  const settled = await Promise.allSettled(items.map(({ hash, bytes }) => store.stage(hash, bytes)))
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed !== undefined) throw failed.reason
  return settled.map((s) => (s as PromiseFulfilledResult<StageResult>).value)
}
