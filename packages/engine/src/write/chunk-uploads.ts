import { CHUNK_SIZES } from '../chunking/fastcdc'
import { EngineError } from '../errors'
import type { Lease } from '../commit/gc-fence'
import { parseHash, sameBytes, toHex } from '../internal/hex'
import type { ChunkRef } from '../objects/tree-objects'
import type { Ingested } from './ingest'
import { UploadGrace } from './upload-grace'
import type { ChunkStore } from '../chunks/chunk-store'
import type { GcFence } from '../commit/gc-fence'
import type { WritePath } from '../commit/write-path'
import type { Clock } from '../internal/clock'
import type { ObjectStore } from '../objects/object-store'

/** What chunk uploads need. */
export interface ChunkUploadServices {
  assertOpen(): void
  readonly chunks: ChunkStore
  readonly clock: Clock
  readonly fence: GcFence
  readonly objects: ObjectStore
  readonly writes: WritePath
}

const CONTENT_PREFIX = new TextEncoder().encode('content:')

/**
 * Stores one chunk a client cut with the engine's chunker, durably (its own commit), after
 * checking that `bytes` hash to `hash`. Already stored chunks cost nothing.
 */
export async function putChunk(
  core: ChunkUploadServices,
  hash: string,
  bytes: Uint8Array,
): Promise<{ isNew: boolean }> {
  core.assertOpen()
  const id = parseHash(hash)
  if (bytes.length === 0 || bytes.length > CHUNK_SIZES.maxSize) {
    throw new EngineError(
      'INVALID_INPUT',
      `a chunk is 1 to ${CHUNK_SIZES.maxSize} bytes, got ${bytes.length}`,
    )
  }
  if (!sameBytes(core.objects.hasher.hashDomain('chunk', bytes), id)) {
    throw new EngineError('INVALID_INPUT', `the bytes do not hash to ${hash}`)
  }
  await core.writes.enter()
  const lease = core.fence.lease()
  try {
    const sweeping = lease.add(id)
    if (sweeping !== undefined) await sweeping
    const staged = await core.chunks.stage(id, bytes)
    const tally = staged.isNew
      ? { chunks: 1, rawBytes: bytes.length, storedBytes: staged.storedBytes }
      : { chunks: 0, rawBytes: 0, storedBytes: 0 }
    await core.writes.submit({ apply: async () => ({ ops: staged.ops, tally, result: undefined }) })
    // Held past this call (while the lease still pins it): the file naming it comes later.
    void uploadGraceOf(core).hold(id)
    return { isNew: staged.isNew }
  } finally {
    core.writes.exit()
    lease.release()
  }
}

/**
 * The hashes among `hashes` whose chunks are not stored (committed). The others are held
 * against GC for the upload's grace window (pinned before they are looked up), so the
 * commit that names them does not find them swept in between.
 */
/**
 * The bytes of a stored chunk, as uploads stored them: `NOT_FOUND` when it is not stored,
 * `INVALID_HASH` for a malformed id, `CONTENT_CORRUPT` rather than damaged bytes.
 */
export async function readChunk(core: ChunkUploadServices, hash: string): Promise<Uint8Array> {
  core.assertOpen()
  return core.chunks.read(parseHash(hash))
}

export async function missingChunks(
  core: ChunkUploadServices,
  hashes: readonly string[],
  options: { hold?: boolean } = {},
): Promise<string[]> {
  const grace = options.hold === false ? undefined : uploadGraceOf(core)
  const missing: string[] = []
  for (const hash of hashes) {
    const id = parseHash(hash)
    const sweeping = grace?.hold(id)
    if (sweeping !== undefined) await sweeping
    if (!(await core.chunks.has(id, { committed: true }))) missing.push(hash.toLowerCase())
  }
  return missing
}

const graces = new WeakMap<ChunkUploadServices, UploadGrace>()

/** The upload grace of an open database (see {@link UploadGrace}). */
function uploadGraceOf(core: ChunkUploadServices): UploadGrace {
  let grace = graces.get(core)
  if (grace === undefined) {
    grace = new UploadGrace(core.fence, core.clock)
    graces.set(core, grace)
  }
  return grace
}

/**
 * The content of a file assembled from stored chunks: every chunk must be committed (they
 * are pinned against GC through `lease` first) and declared with its real raw size (a size
 * the store does not confirm is refused: it would make reads fail and let two different
 * contents share a content hash), and `contentHash`, when given, must match.
 */
export async function contentFromChunks(
  core: ChunkUploadServices,
  refs: readonly { hash: string; size: number }[],
  lease: Lease,
  contentHash?: string,
): Promise<Ingested> {
  const chunks: ChunkRef[] = []
  const ids = core.objects.hasher.createStream()
  ids.update(CONTENT_PREFIX)
  let size = 0
  const missing: string[] = []
  for (const ref of refs) {
    if (!Number.isSafeInteger(ref.size) || ref.size < 1 || ref.size > CHUNK_SIZES.maxSize)
      throw new EngineError(
        'INVALID_INPUT',
        `chunk ${ref.hash}: size must be 1 to ${CHUNK_SIZES.maxSize}`,
      )
    const hash = parseHash(ref.hash)
    const sweeping = lease.add(hash)
    if (sweeping !== undefined) await sweeping
    const stored = await core.chunks.rawSize(hash, { committed: true })
    if (stored === undefined) {
      missing.push(ref.hash.toLowerCase())
      continue
    }
    if (stored !== ref.size)
      throw new EngineError(
        'INVALID_INPUT',
        `chunk ${ref.hash.toLowerCase()} is ${stored} bytes, not ${ref.size}`,
      )
    chunks.push({ hash, size: stored })
    ids.update(hash)
    size += stored
  }
  if (missing.length > 0) {
    throw new EngineError(
      'INVALID_INPUT',
      `${missing.length} chunk(s) are not stored: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`,
    )
  }
  const digest = ids.digest()
  if (contentHash !== undefined && toHex(digest) !== contentHash.toLowerCase()) {
    throw new EngineError(
      'INVALID_INPUT',
      `the chunks make content hash ${toHex(digest)}, not ${contentHash}`,
    )
  }
  return {
    chunks,
    size,
    contentHash: digest,
    ops: [],
    newChunks: 0,
    newRawBytes: 0,
    newStoredBytes: 0,
  }
}
