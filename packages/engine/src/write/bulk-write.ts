import { EngineError, isEngineError, throwIfAborted } from '../errors'
import type { Lease } from '../commit/gc-fence'
import { checkedConfigData, isIndexConfigPath } from './checked-config-data'
import { parseHash, toHex } from '../internal/hex'
import { normalizePath } from '../path/db-path'
import { bulkWriteMutation } from './bulk-write-mutation'
import type { BulkEntry } from './bulk-write-mutation'
import { contentFromChunks } from './chunk-uploads'
import { ingest } from './ingest'
import type { Ingested } from './ingest'
import { checkFileFields } from './mutations'
import type { WriteData } from './write-data'
import type { ChunkStore } from '../chunks/chunk-store'
import type { GcFence } from '../commit/gc-fence'
import type { WritePath } from '../commit/write-path'
import type { ObjectStore } from '../objects/object-store'
import type { DatabaseState } from '../state/database-state'
import type { DatabaseMeters } from '../stats/database-meters'
import type { ChunkUploadServices } from './chunk-uploads'

/** What a bulk write needs. */
export interface BulkWriteServices extends ChunkUploadServices {
  assertOpen(): void
  readonly chunks: ChunkStore
  readonly fence: GcFence
  readonly meters: DatabaseMeters
  readonly objects: ObjectStore
  readonly state: DatabaseState
  readonly writes: WritePath
}

/** Fields every file of {@link Workspace.writeFiles} may carry. */
interface BulkFileFields {
  /** Where to write (parents are created); normalised like every path. */
  path: string
  /** Stored with the file; `application/octet-stream` when absent. */
  contentType?: string
  /** User metadata, stored as JSON with the file (at most 64 KiB). */
  metadata?: Record<string, unknown>
}

/** A file of {@link Workspace.writeFiles} given by its content. */
export interface BulkFile extends BulkFileFields {
  data: WriteData
}

/**
 * A file of {@link Workspace.writeFiles} made of chunks already stored (`Database.putChunk`),
 * in order, as `writeChunks` takes them; `contentHash`, when given, must be theirs.
 */
export interface BulkChunksFile extends BulkFileFields {
  chunks: readonly { hash: string; size: number }[]
  contentHash?: string
}

/** What {@link Workspace.writeFiles} reports of each file once its batch is durable. */
export interface WrittenFile {
  path: string
  size: number
  /** Hex content hash. */
  hash: string
  contentType: string
  /** True when the path held no file before. */
  created: boolean
  /** Hex hash of the version the file's batch produced. */
  version: string
  /** When the path first held a file (ms since the epoch), kept across replacements. */
  createdAt: number
  /** When this write happened: the batch's commit time (ms since the epoch). */
  updatedAt: number
}

/** Options of {@link Workspace.writeFiles}. */
export interface WriteFilesOptions {
  /** Files whose content is read and stored at once (default 8). */
  concurrency?: number
  /**
   * Bytes a batch may hold in memory until its commit (default 64 MiB): small chunks and
   * chunk-index entries wait there for the batch's metadata commit. Past it, the batch
   * commits and a new one starts.
   */
  maxBatchBytes?: number
  /** Files per batch (default 50,000); past it, the batch commits and a new one starts. */
  maxBatchFiles?: number
  /** Called for each file once its batch is durable, in the order the files were given. */
  onWritten?: (file: WrittenFile) => void
  signal?: AbortSignal
}

/** What {@link Workspace.writeFiles} did. */
export interface WriteFilesResult {
  /** Hex hash of the latest version written (the workspace's head when nothing was given). */
  version: string
  /** Files written (a path given twice counts twice). */
  files: number
  /** Bytes of content written. */
  bytes: number
  /** Files whose path held no file before. */
  created: number
  /** Files that replaced a file. */
  replaced: number
  /** Versions committed: one per batch. */
  versions: number
}

const DEFAULT_CONCURRENCY = 8
const DEFAULT_MAX_BATCH_BYTES = 64 * 1024 * 1024
const DEFAULT_MAX_BATCH_FILES = 50_000
/** What a file costs in a batch besides its ops (objects, paths, result bookkeeping). */
const FILE_OVERHEAD_BYTES = 512

/** One file of the batch being filled: its place in the input, and its ingest. */
interface Slot {
  path: string
  contentType: string
  metadata: string
  started: number
  content?: Ingested
  error?: unknown
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`)
  return value
}

/** The error of a file, naming its path (a user must know which one of thousands failed). */
function namingPath(err: unknown, path: string): unknown {
  if (err instanceof TypeError || err instanceof RangeError) return err
  if (isEngineError(err)) {
    if (err.message.includes(path)) return err
    return new EngineError(err.code, `${path}: ${err.message}`, { path, cause: err })
  }
  const message = err instanceof Error ? err.message : String(err)
  return new EngineError('INVALID_INPUT', `${path}: its content could not be read: ${message}`, {
    path,
    cause: err,
  })
}

/**
 * Writes many files as few versions (see {@link Workspace.writeFiles}): contents are ingested
 * `concurrency` at a time, and every batch is committed as one mutation of `ref`.
 */
export async function writeFiles(
  core: BulkWriteServices,
  ref: string,
  files: Iterable<BulkFile | BulkChunksFile> | AsyncIterable<BulkFile | BulkChunksFile>,
  options: WriteFilesOptions = {},
): Promise<WriteFilesResult> {
  core.assertOpen()
  const concurrency = positive(options.concurrency, DEFAULT_CONCURRENCY, 'concurrency')
  const maxBytes = positive(options.maxBatchBytes, DEFAULT_MAX_BATCH_BYTES, 'maxBatchBytes')
  const maxFiles = positive(options.maxBatchFiles, DEFAULT_MAX_BATCH_FILES, 'maxBatchFiles')
  const { signal, onWritten } = options
  const total: WriteFilesResult = {
    version: toHex(core.state.rootOf(ref)),
    files: 0,
    bytes: 0,
    created: 0,
    replaced: 0,
    versions: 0,
  }

  let slots: Slot[] = []
  let heldBytes = 0
  let failed: Slot | undefined
  let lease: Lease | undefined
  const inflight = new Set<Promise<void>>()

  // Everything started settles before a batch commits or fails: no I/O outlives it.
  const settle = async () => {
    while (inflight.size > 0) await Promise.all(inflight)
  }
  const begin = async () => {
    await core.writes.enter()
    lease = core.fence.lease()
  }
  const release = (held: Lease | undefined) => {
    if (held === undefined) return
    held.release()
    core.writes.exit()
  }
  const finish = () => {
    release(lease)
    lease = undefined
  }

  /** Commits a batch, then reports its files; voids what it staged if it fails. */
  const commitBatch = async (batch: Slot[]) => {
    const entries: BulkEntry[] = batch.map((slot) => ({
      path: slot.path,
      content: slot.content as Ingested,
      contentType: slot.contentType,
      metadata: slot.metadata,
    }))
    let committed
    try {
      committed = await core.writes.submit(bulkWriteMutation(ref, entries))
    } catch (err) {
      for (const slot of batch) voided(slot.content as Ingested)
      throw err
    }
    const { outcomes, version } = committed
    const now = performance.now()
    total.version = version
    total.versions++
    for (const [i, slot] of batch.entries()) {
      const content = slot.content as Ingested
      const { created, file } = outcomes[i] as (typeof outcomes)[number]
      core.meters.write(content.size, now - slot.started)
      total.files++
      total.bytes += content.size
      if (created) total.created++
      else total.replaced++
      onWritten?.({
        path: slot.path,
        size: content.size,
        hash: toHex(file.contentHash),
        contentType: file.contentType,
        created,
        version,
        createdAt: file.createdAt,
        updatedAt: file.updatedAt,
      })
    }
  }

  // The batch being committed while the next one is read and stored: the commit (tree edit,
  // synced batch) overlaps the next batch's ingest. At most one is outstanding, so batches
  // commit in order and at most two are held in memory.
  let committing: Promise<void> | undefined
  const waitCommitted = async () => {
    const pending = committing
    committing = undefined
    if (pending !== undefined) await pending
  }

  /** Closes the current batch: starts its commit once the previous one is durable. */
  const closeBatch = async () => {
    await settle()
    if (failed !== undefined) throw namingPath(failed.error, failed.path)
    // Before taking the batch: if the previous commit failed, this batch is voided with it.
    await waitCommitted()
    const batch = slots
    slots = []
    heldBytes = 0
    const held = lease
    lease = undefined
    if (batch.length === 0) {
      release(held)
      return
    }
    committing = commitBatch(batch).finally(() => release(held))
    // Observed by the next waitCommitted; never an unhandled rejection meanwhile.
    committing.catch(() => undefined)
  }

  /** Checks a file and starts ingesting it into the current batch. */
  const add = async (item: BulkFile | BulkChunksFile) => {
    let path = String(item.path)
    try {
      path = normalizePath(item.path)
      if (path === '/')
        throw new EngineError('INVALID_PATH', 'cannot write a file over the root directory', {
          path,
        })
      const metadata = item.metadata === undefined ? '' : JSON.stringify(item.metadata)
      checkFileFields(path, metadata || '{}', item)
      let data = 'data' in item ? item.data : undefined
      const chunks = 'chunks' in item ? item : undefined
      if (data === undefined && !Array.isArray(chunks?.chunks))
        throw new TypeError(`writeFiles: ${path} has neither data nor chunks`)
      if (isIndexConfigPath(path)) {
        // Configurations are small and checked before they are stored, as writeFile does.
        data = await checkedConfigData(data ?? chunkBytes(core, (chunks as BulkChunksFile).chunks))
      }
      const slot: Slot = {
        path,
        contentType: item.contentType ?? 'application/octet-stream',
        metadata,
        started: performance.now(),
      }
      const held = lease as Lease
      const run = async () => {
        const content =
          data !== undefined
            ? await ingest(data, core.chunks, core.objects.hasher, { signal, lease: held })
            : await contentFromChunks(
                core,
                (chunks as BulkChunksFile).chunks,
                held,
                (chunks as BulkChunksFile).contentHash,
              )
        core.meters.chunksIngested(content.chunks.length, content.newChunks)
        slot.content = content
        for (const op of content.ops) if (op.type === 'put') heldBytes += op.value.length
        heldBytes += FILE_OVERHEAD_BYTES + path.length + metadata.length
      }
      slots.push(slot)
      const done: Promise<void> = run().then(
        () => void inflight.delete(done),
        (err: unknown) => {
          inflight.delete(done)
          slot.error = err
          failed ??= slot
        },
      )
      inflight.add(done)
    } catch (err) {
      throw namingPath(err, path)
    }
  }

  try {
    await begin()
    for await (const item of files) {
      throwIfAborted(signal, 'the write')
      if (slots.length >= maxFiles || heldBytes >= maxBytes) {
        await closeBatch()
        await begin()
      }
      await add(item)
      while (inflight.size >= concurrency) await Promise.race(inflight)
      // A failed file fails its batch: stop reading at once (commit throws its error).
      if (failed !== undefined) break
    }
    throwIfAborted(signal, 'the write')
    await closeBatch()
    await waitCommitted()
  } catch (err) {
    await settle()
    for (const slot of slots) if (slot.content !== undefined) voided(slot.content)
    // A batch still committing settles (and is counted) before the call answers.
    await waitCommitted().catch(() => undefined)
    throw err
  } finally {
    finish()
  }
  return total

  function voided(content: Ingested): void {
    core.state.counters.addVoidBytes(content.newStoredBytes)
  }
}

async function* chunkBytes(
  core: BulkWriteServices,
  chunks: readonly { hash: string; size: number }[],
): AsyncGenerator<Uint8Array> {
  for (const ref of chunks) yield await core.chunks.read(parseHash(ref.hash))
}
