import { throwIfAborted } from '../errors'
import type { ChunkStore } from '../chunks/chunk-store'
import { CHUNK_SIZES, createChunker } from '../chunking/fastcdc'
import type { Lease } from '../gc/gc-fence'
import type { Hasher } from '../hashing/hasher'
import type { MetaOp } from '../meta/meta-store'
import type { ChunkRef } from '../objects/tree-objects'
import { leadingBytes } from './write-data'
import type { WriteData } from './write-data'

/** Chunk stores written to concurrently per upload: hashing the next chunk overlaps the I/O of the last. */
const STAGE_WINDOW = 8

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
 * Streams content through the chunker, hashes each chunk and stages it in the chunk store.
 * Memory is bounded by the chunker's max chunk size times the staging window, whatever the
 * size of the content.
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

  const stage = async (bytes: Uint8Array) => {
    const hash = hasher.hashDomain('chunk', bytes)
    content.update(hash)
    out.chunks.push({ hash, size: bytes.length })
    out.size += bytes.length
    // Pinned before the store checks for the chunk, so GC cannot delete a chunk this file
    // is about to reuse (see GcFence).
    const sweeping = lease?.add(hash)
    if (sweeping !== undefined) await sweeping
    inflight.push(
      chunks.stage(hash, bytes).then((result) => {
        for (const op of result.ops) out.ops.push(op)
        if (result.isNew) {
          out.newChunks++
          out.newRawBytes += bytes.length
          out.newStoredBytes += result.storedBytes
        }
      }),
    )
    if (inflight.length >= STAGE_WINDOW) await inflight.shift()
  }

  // Every staged write settles before returning, so no I/O outlives a failed upload.
  const settle = async () => {
    const settled = await Promise.allSettled(inflight.splice(0))
    return settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  }
  try {
    const head = await leadingBytes(data, CHUNK_SIZES.minSize, signal)
    if (head.whole !== undefined) {
      if (head.whole.length > 0) await stage(head.whole)
    } else {
      const chunker = createChunker()
      for await (const buffer of head.rest) {
        throwIfAborted(signal, 'the write')
        for (const chunk of chunker.push(buffer)) await stage(chunk)
      }
      for (const chunk of chunker.end()) await stage(chunk)
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
