import { CHUNK_SIZES } from '../chunking/fastcdc'
import type { ChunkStore } from '../chunks/chunk-store'
import type { Lease } from '../gc/gc-fence'
import type { Hasher } from '../hashing/hasher'
import type { Ingested } from './ingest'
import type { WriteData } from './write-data'

const CONTENT_PREFIX = new TextEncoder().encode('content:')
const encoder = new TextEncoder()

/**
 * The bytes of `data` when they fit in one chunk and are at hand (bytes or text up to the
 * chunker's minimum size, which it never cuts), else `undefined`: streams and larger
 * contents go through `ingest`.
 */
export function singleChunkBytes(data: WriteData): Uint8Array | undefined {
  if (typeof data === 'string') {
    // UTF-8 takes at least one byte per UTF-16 unit: a longer string cannot fit.
    if (data.length > CHUNK_SIZES.minSize) return undefined
    const bytes = encoder.encode(data)
    return bytes.length <= CHUNK_SIZES.minSize ? bytes : undefined
  }
  if (data instanceof Uint8Array) return data.length <= CHUNK_SIZES.minSize ? data : undefined
  return undefined
}

/**
 * Ingests content that fits in one chunk (see {@link singleChunkBytes}) without the chunker
 * and stream machinery, with exactly what `ingest` gives for it: no chunk for empty content,
 * else one chunk of all the bytes, and the same content hash (`content:` then the chunk ids).
 * A bulk load of small files spends most of its per-file time on that machinery otherwise.
 */
export async function ingestSingleChunk(
  bytes: Uint8Array,
  chunks: ChunkStore,
  hasher: Hasher,
  lease?: Lease,
): Promise<Ingested> {
  const content = hasher.createStream()
  content.update(CONTENT_PREFIX)
  const out: Ingested = {
    chunks: [],
    size: bytes.length,
    contentHash: new Uint8Array(),
    ops: [],
    newChunks: 0,
    newRawBytes: 0,
    newStoredBytes: 0,
  }
  if (bytes.length > 0) {
    const hash = hasher.hashDomain('chunk', bytes)
    content.update(hash)
    out.chunks.push({ hash, size: bytes.length })
    // Pinned before the store checks for the chunk, as `ingest` does (see GcFence).
    const sweeping = lease?.add(hash)
    if (sweeping !== undefined) await sweeping
    const result = await chunks.stage(hash, bytes)
    out.ops = result.ops
    if (result.isNew) {
      out.newChunks = 1
      out.newRawBytes = bytes.length
      out.newStoredBytes = result.storedBytes
    }
  }
  out.contentHash = content.digest()
  return out
}
