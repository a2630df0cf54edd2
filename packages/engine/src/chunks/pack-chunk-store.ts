import { EngineError, isEngineError } from '../errors'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import { insufficientStorage } from '../internal/no-space'
import type { CompressionOptions } from './chunk-codec'
import { RECORD_HEADER_LENGTH, assertChunkHash, openChunkRecord } from './chunk-record'
import type { ChunkStore, CompactReport, SpanBuffers, StageResult } from './chunk-store'
import { checkCompactOptions, throwIfAborted } from './compact-options'
import { PackAppender } from './pack-appender'
import { compactPacks } from './pack-compaction'
import type { CompactionStart } from './pack-compaction'
import type { PackFile } from './pack-file'
import { nodePackFileSystem } from './pack-file-system'
import type { PackFileSystem } from './pack-file-system'
import { decodePackLocation, packLengthOp } from './pack-location'
import type { PackLocation } from './pack-location'
import { createLocationCache, locationKey, readManyRecords } from './pack-read-many'
import { recoverPacks } from './pack-recovery'
import type { PackRecoveryReport } from './pack-recovery'
import { createPackStager } from './pack-stager'
import type { Staged } from './pack-stager'
import { stagedChunks } from './staged-chunks'
import { StagingTable } from './staging-table'

/** Options of {@link createPackChunkStore}. */
export interface PackChunkStoreOptions {
  /** The directory of the pack files (`pack-000001.pack`, …); created when missing. */
  dir: string
  /** The metadata store holding the chunk index (`chunkidx`) and committed pack lengths. */
  meta: MetaStore
  /** A pack is closed for appends once the next record would take it past this. Default 1 GiB. */
  packSizeLimit?: number
  compression?: CompressionOptions
  /** The file operations pack files go through; `node:fs` by default (tests simulate crashes). */
  files?: PackFileSystem
}

/** The pack {@link ChunkStore}, with what opening it found. */
export interface PackChunkStore extends ChunkStore {
  readonly kind: 'pack'
  /** Torn tails cut and damaged packs found when the store opened. */
  readonly recovery: PackRecoveryReport
}

const hex = (hash: Uint8Array): string => Buffer.from(hash).toString('hex')
const where = (location: PackLocation): string => `pack ${location.pack} offset ${location.offset}`

function ioError(action: string, err: unknown): EngineError {
  if (isEngineError(err)) return err
  const full = insufficientStorage(`pack ${action}`, err)
  if (full !== undefined) return full
  return new EngineError('IO_ERROR', `pack ${action} failed: ${(err as Error).message}`, {
    cause: err,
  })
}

/**
 * Opens the pack chunk store of `dir` (DESIGN §3.1): append-only pack files of framed records
 * `[magic][hash][codec][raw length][stored length][crc32][bytes]`, indexed in `chunkidx`.
 * Opening cuts torn tails (see `recoverPacks`) and reports damaged packs in `recovery`.
 *
 * Records are appended by one writer in order; `flush()` fdatasyncs every pack written since
 * the previous flush (concurrent callers share one) and returns ops recording their durable
 * lengths. Reads check the framing, the index fields and the CRC, then inflate; corrupt bytes
 * are never returned.
 *
 * `removeOps()` drops index entries, leaving dead bytes in their packs; `compact()` copies the
 * live records of mostly dead packs into fresh packs and deletes the old ones (see
 * `compactPacks`). A read that finds its pack gone looks the chunk up once more.
 *
 * @example
 * const chunks = await createPackChunkStore({ dir: join(path, 'packs'), meta })
 * const { ops } = await chunks.stage(hash, bytes)
 * await meta.batch([...ops, ...(await chunks.flush())], { sync: true })
 * chunks.committed()
 */
export async function createPackChunkStore(
  options: PackChunkStoreOptions,
): Promise<PackChunkStore> {
  const { dir, meta, compression = {}, files = nodePackFileSystem } = options
  const sizeLimit = options.packSizeLimit ?? 2 ** 30
  if (!Number.isSafeInteger(sizeLimit) || sizeLimit < 1) {
    throw new RangeError(`packSizeLimit must be a positive integer, got ${sizeLimit}`)
  }
  let recovered
  try {
    recovered = await recoverPacks(files, dir, meta)
  } catch (err) {
    throw ioError(`directory ${dir} open`, err)
  }
  const { packs, damaged, uncommitted, nextId, report } = recovered
  const last = packs.get(nextId - 1)
  const active =
    last !== undefined &&
    !damaged.has(last.id) &&
    !uncommitted.has(last.id) &&
    last.size < sizeLimit
      ? last
      : undefined
  const appender = new PackAppender(files, dir, packs, { active, nextId, sizeLimit })
  const table = new StagingTable<Staged>()
  const locations = createLocationCache()
  let closed = false
  let flushing: Promise<MetaOp[]> | undefined
  let queuedFlush: Promise<MetaOp[]> | undefined
  let compacting: Promise<unknown> = Promise.resolve()

  const assertOpen = (): void => {
    if (closed) throw new EngineError('CLOSED', 'the chunk store is closed')
  }

  async function lookup(hash: Uint8Array): Promise<PackLocation> {
    const entry = await meta.get('chunkidx', hash)
    if (entry === undefined) throw new EngineError('NOT_FOUND', `chunk ${hex(hash)} is not stored`)
    return decodePackLocation(entry)
  }

  /** Reads the record at `location` from `pack` (the open pack of that id, if any). */
  async function readAt(
    hash: Uint8Array,
    location: PackLocation,
    pack: PackFile | undefined,
    buffers?: SpanBuffers,
  ): Promise<Uint8Array> {
    if (pack === undefined) {
      throw new EngineError(
        'CONTENT_CORRUPT',
        `chunk ${hex(hash)} is in missing ${where(location)}`,
      )
    }
    const length = RECORD_HEADER_LENGTH + location.storedLength
    const record = await readSpan(pack, location.offset, length, buffers?.take(length))
    return openAt(hash, location, record)
  }

  /** `length` bytes of `pack` at `offset` (into `into` if given), fewer when the file ends first. */
  async function readSpan(
    pack: PackFile,
    offset: number,
    length: number,
    into?: Uint8Array,
  ): Promise<Uint8Array> {
    try {
      return await pack.read(offset, length, into)
    } catch (err) {
      if (closed) throw new EngineError('CLOSED', 'the chunk store is closed', { cause: err })
      throw ioError('read', err)
    }
  }

  /** The raw bytes of the record read at `location`, checked (framing, index fields, CRC). */
  async function openAt(
    hash: Uint8Array,
    location: PackLocation,
    record: Uint8Array,
  ): Promise<Uint8Array> {
    if (record.length < RECORD_HEADER_LENGTH + location.storedLength) {
      throw new EngineError(
        'CONTENT_CORRUPT',
        `chunk ${hex(hash)} is cut short at ${where(location)}`,
      )
    }
    try {
      return await openChunkRecord(record, { hash, ...location })
    } catch (err) {
      if (isEngineError(err, 'CONTENT_CORRUPT')) {
        throw new EngineError(
          'CONTENT_CORRUPT',
          `chunk ${hex(hash)} at ${where(location)}: ${err.message}`,
          {
            cause: err,
          },
        )
      }
      throw err
    }
  }

  async function readOne(hash: Uint8Array): Promise<Uint8Array> {
    assertOpen()
    assertChunkHash(hash)
    const staged = (await table.settled(hash))?.location
    if (staged !== undefined) return readAt(hash, staged, packs.get(staged.pack))
    let location = await lookup(hash)
    let pack = packs.get(location.pack)
    if (pack === undefined) {
      // A compaction may have moved the record since the lookup: look once more.
      location = await lookup(hash)
      pack = packs.get(location.pack)
    }
    // No await between finding the pack and starting the read: a pack being removed then
    // keeps its handle open until the read is done.
    return readAt(hash, location, pack)
  }

  async function runFlush(): Promise<MetaOp[]> {
    const mark = table.mark()
    let synced
    try {
      synced = await appender.sync()
    } catch (err) {
      // Staged records may not be durable: let later stages write them again.
      table.clear()
      throw ioError('flush', err)
    }
    table.flushed(mark)
    return synced.map(({ pack, length }) => packLengthOp(pack, length))
  }

  function startFlush(): Promise<MetaOp[]> {
    const run = runFlush()
    flushing = run
    const settle = (): void => {
      if (flushing === run) flushing = undefined
    }
    run.then(settle, settle)
    return run
  }

  const stageMany = createPackStager({ table, meta, appender, compression, assertOpen, ioError })

  const shared = stagedChunks({
    table,
    meta,
    space: 'chunkidx',
    stagedRawLength: (staged) => staged.location.rawLength,
    committedRawLength: (entry) => decodePackLocation(entry).rawLength,
    assertOpen,
  })

  return {
    kind: 'pack',
    recovery: report,

    has: shared.has,
    rawSize: shared.rawSize,

    read(hash) {
      return readOne(hash)
    },

    readMany(hashes, options) {
      return readManyRecords(
        { table, meta, packs, readOne, readAt, readSpan, openAt, assertOpen, locations },
        hashes,
        options?.buffers,
      )
    },

    stage(hash, bytes): Promise<StageResult> {
      return stageMany([{ hash, bytes }]).then((results) => results[0] as StageResult)
    },

    stageMany(items) {
      return stageMany(items)
    },

    async *entries() {
      assertOpen()
      for await (const [hash, entry] of meta.iterate('chunkidx')) {
        yield { hash, storedBytes: RECORD_HEADER_LENGTH + decodePackLocation(entry).storedLength }
      }
    },

    removeOps(hash) {
      const ops = shared.removeOps(hash)
      locations.delete(locationKey(hash))
      return ops
    },

    compact(options): Promise<CompactReport> {
      let minDeadRatio
      try {
        assertOpen()
        minDeadRatio = checkCompactOptions(options)
        throwIfAborted(options.signal)
      } catch (err) {
        return Promise.reject(err)
      }
      // Taken at the call, before any await (see ChunkStore.compact's precondition).
      const start: CompactionStart = {
        sizes: new Map([...packs].map(([id, pack]) => [id, pack.size])),
        staged: table.entries().map((entry) =>
          entry.promise.then(
            (staged) => staged?.location.pack,
            () => undefined,
          ),
        ),
      }
      const context = { files, dir, meta, packs, appender, damaged, sizeLimit, assertOpen }
      const run = compacting.then(() => compactPacks(context, start, { ...options, minDeadRatio }))
      compacting = run.catch(() => undefined)
      return run
    },

    flush() {
      if (closed) return Promise.reject(new EngineError('CLOSED', 'the chunk store is closed'))
      // One flush at a time; callers arriving meanwhile share the next one, which starts
      // after it and so covers everything they staged.
      if (queuedFlush !== undefined) return queuedFlush
      if (flushing === undefined) return startFlush()
      const next = flushing
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          queuedFlush = undefined
          return startFlush()
        })
      queuedFlush = next
      return next
    },

    committed: shared.committed,

    async close() {
      if (closed) return
      closed = true
      await appender.barrier()
      await Promise.allSettled([flushing, queuedFlush])
      table.clear()
      await Promise.all([...packs.values()].map((p) => p.close().catch(() => undefined)))
    },
  }
}
