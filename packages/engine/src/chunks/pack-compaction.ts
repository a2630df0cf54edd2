import { EngineError, isEngineError } from '../errors'
import { crashPoint } from '../internal/crash-point'
import { insufficientStorage } from '../internal/no-space'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import { RECORD_HEADER_LENGTH, bodyMatches, decodeChunkRecordHeader } from './chunk-record'
import type { CompactOptions, CompactReport } from './chunk-store'
import { throwIfAborted } from './compact-options'
import type { AppendedAt, PackAppender } from './pack-appender'
import { PackCopier } from './pack-copier'
import type { PackFile } from './pack-file'
import type { PackFileSystem } from './pack-file-system'
import { liveBytesByPack, planCompaction } from './pack-compaction-plan'
import { packLengthKey } from '../meta/keys'
import { decodePackLocation, indexOp, packLengthOp } from './pack-location'
import type { PackLocation } from './pack-location'

/** Live records are read and copied this many bytes at a time (one batch never spans packs). */
const COPY_BATCH_BYTES = 8 * 1024 * 1024
/** Index entries re-checked per `getMany` before the commit. */
const RECHECK_BATCH = 4096

/** The pack store's state that compaction works on. */
export interface PackCompactionContext {
  files: PackFileSystem
  dir: string
  meta: MetaStore
  /** The store's open packs; compaction adds its new packs and takes out the removed ones. */
  packs: Map<number, PackFile>
  appender: PackAppender
  damaged: ReadonlySet<number>
  sizeLimit: number
  /** Throws `CLOSED` once the store is closed. */
  assertOpen(): void
}

/**
 * What must stay put, captured synchronously when `compact()` is called: ops handed out
 * after the call can only point into packs written since, or at records staged at the call.
 */
export interface CompactionStart {
  /** Pack sizes at the call: a pack written to since is left alone. */
  sizes: ReadonlyMap<number, number>
  /** The packs of the records staged at the call (undefined when a stage stored nothing). */
  staged: Promise<number | undefined>[]
}

interface Move {
  hash: Uint8Array
  /** The index entry as read, to spot a change before the commit. */
  entry: Uint8Array
  location: PackLocation
}

interface Copied {
  move: Move
  at: AppendedAt
}

const recordLength = (location: PackLocation): number =>
  RECORD_HEADER_LENGTH + location.storedLength

/** The live records of `packs`, ordered by pack and offset so each pack is read front to back. */
async function collectMoves(meta: MetaStore, packs: ReadonlySet<number>): Promise<Move[]> {
  const moves: Move[] = []
  for await (const [hash, entry] of meta.iterate('chunkidx')) {
    const location = decodePackLocation(entry)
    if (packs.has(location.pack)) moves.push({ hash, entry, location })
  }
  return moves.sort(
    (a, b) => a.location.pack - b.location.pack || a.location.offset - b.location.offset,
  )
}

/** Consecutive moves of one pack, up to {@link COPY_BATCH_BYTES} (at least one move). */
function* batches(moves: Move[]): Generator<Move[]> {
  let batch: Move[] = []
  let bytes = 0
  for (const move of moves) {
    const first = batch[0]
    if (
      first !== undefined &&
      (first.location.pack !== move.location.pack ||
        bytes + recordLength(move.location) > COPY_BATCH_BYTES)
    ) {
      yield batch
      batch = []
      bytes = 0
    }
    batch.push(move)
    bytes += recordLength(move.location)
  }
  if (batch.length > 0) yield batch
}

/** True when `record` is the whole, intact record the index entry describes. */
function intact(record: Uint8Array, { hash, location }: Move): boolean {
  if (record.length !== recordLength(location)) return false
  let header
  try {
    header = decodeChunkRecordHeader(record)
  } catch {
    return false
  }
  return (
    Buffer.compare(header.hash, hash) === 0 &&
    header.codec === location.codec &&
    header.rawLength === location.rawLength &&
    bodyMatches(header, record.subarray(RECORD_HEADER_LENGTH))
  )
}

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array): boolean =>
  a !== undefined && Buffer.compare(a, b) === 0

/** The copies whose index entries still point where they were read: removals win. */
async function stillIndexed(meta: MetaStore, copied: Copied[]): Promise<Copied[]> {
  const kept: Copied[] = []
  for (let i = 0; i < copied.length; i += RECHECK_BATCH) {
    const slice = copied.slice(i, i + RECHECK_BATCH)
    const now = await meta.getMany(
      'chunkidx',
      slice.map((c) => c.move.hash),
    )
    slice.forEach((c, j) => {
      if (sameBytes(now[j], c.move.entry)) kept.push(c)
    })
  }
  return kept
}

/**
 * Removes compacted packs once the commit has switched readers away: the file goes first (an
 * open handle keeps serving reads that found it), then the pack leaves the map and its handle
 * closes when its last read is done. A pack whose file cannot be removed stays in the map;
 * nothing in it is live, so the next compaction takes it.
 */
async function removePacks(context: PackCompactionContext, ids: number[]): Promise<void> {
  const failures: unknown[] = []
  for (const id of ids) {
    const pack = context.packs.get(id)
    if (pack === undefined) continue
    try {
      await context.files.unlink(pack.path)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        failures.push(err)
        continue
      }
    }
    context.packs.delete(id)
    pack.retire().catch(() => undefined)
  }
  try {
    await context.files.syncDirectory(context.dir)
  } catch (err) {
    failures.push(err)
  }
  if (failures.length > 0) {
    const cause = failures[0] as Error
    throw (
      insufficientStorage(
        'removing compacted packs (the compaction itself committed; the next one retries)',
        cause,
      ) ??
      new EngineError(
        'IO_ERROR',
        `pack compaction committed, but removing old packs failed (the next compaction retries): ${cause.message}`,
        { cause },
      )
    )
  }
}

/**
 * Awaits file I/O, answering `CLOSED` when the store closed meanwhile, `INSUFFICIENT_STORAGE`
 * when the disk is full, else `IO_ERROR`.
 */
async function io<T>(context: PackCompactionContext, action: string, work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (err) {
    context.assertOpen()
    if (isEngineError(err)) throw err
    throw (
      insufficientStorage(`pack compaction ${action}`, err) ??
      new EngineError('IO_ERROR', `pack compaction ${action} failed: ${(err as Error).message}`, {
        cause: err,
      })
    )
  }
}

/**
 * Copies the live records of the packs to rewrite into fresh packs, batch by batch, checking
 * each record first; a pack with a record that fails the check is skipped from then on.
 */
async function copyLive(
  context: PackCompactionContext,
  moves: Move[],
  options: CompactOptions,
  check: () => void,
): Promise<{ copier: PackCopier; copied: Copied[]; skipped: Set<number> }> {
  const copier = new PackCopier(() => context.appender.createPack(), context.sizeLimit)
  const copied: Copied[] = []
  const skipped = new Set<number>()
  const total = moves.reduce((sum, m) => sum + recordLength(m.location), 0)
  let done = 0
  options.onProgress?.(0, total)
  for (const batch of batches(moves)) {
    check()
    const id = (batch[0] as Move).location.pack
    const pack = context.packs.get(id)
    if (skipped.has(id) || pack === undefined) continue
    const records = await io(
      context,
      'read',
      Promise.all(batch.map((m) => pack.read(m.location.offset, recordLength(m.location)))),
    )
    if (!records.every((record, i) => intact(record, batch[i] as Move))) {
      skipped.add(id)
      continue
    }
    const at = await io(context, 'write', copier.write(records))
    batch.forEach((move, i) => copied.push({ move, at: at[i] as AppendedAt }))
    done += records.reduce((sum, r) => sum + r.length, 0)
    options.onProgress?.(done, total)
  }
  return { copier, copied, skipped }
}

/**
 * Compacts the pack directory (see `ChunkStore.compact`): plans from the live bytes the chunk
 * index points at, copies the live records of the chosen packs verbatim (after checking their
 * CRC) into fresh packs, fdatasyncs them, commits new index entries, the new packs' lengths
 * and the removal of the old packs' lengths in one `commit`, then deletes the old packs.
 * A pack holding a record that fails its check is left as it is.
 */
export async function compactPacks(
  context: PackCompactionContext,
  start: CompactionStart,
  options: CompactOptions & { minDeadRatio: number },
): Promise<CompactReport> {
  const { meta, packs, appender } = context
  const check = (): void => {
    context.assertOpen()
    throwIfAborted(options.signal)
  }
  check()
  // A write in flight lands in the active pack, which is never moved, unless a failed sync
  // retired it meanwhile: let such writes finish so the size check below sees them.
  await appender.barrier()
  const held = new Set(await Promise.all(start.staged))
  const live = await liveBytesByPack(meta)
  check()
  const active = appender.activeId
  const usage = [...packs.values()].map((pack) => ({
    id: pack.id,
    size: pack.size,
    live: live.get(pack.id) ?? 0,
    movable: pack.id !== active && start.sizes.get(pack.id) === pack.size && !held.has(pack.id),
    damaged: context.damaged.has(pack.id),
  }))
  const plan = planCompaction(usage, options.minDeadRatio)
  const report: CompactReport = {
    packsRewritten: 0,
    packsRemoved: 0,
    movedBytes: 0,
    reclaimedBytes: 0,
    deadBytes: plan.deadBytesKept,
  }
  if (plan.rewrite.length === 0 && plan.drop.length === 0) return report

  const moves = await collectMoves(meta, new Set(plan.rewrite))
  const { copier, copied, skipped } = await copyLive(context, moves, options, check)
  check()
  await io(context, 'sync', copier.sync())
  // Copies durable, nothing committed: the first hit of the point.
  crashPoint('mid-compaction')
  check()

  const rewritten = plan.rewrite.filter((id) => !skipped.has(id))
  const removed = [...rewritten, ...plan.drop]
  const kept = await stillIndexed(
    meta,
    copied.filter((c) => !skipped.has(c.move.location.pack)),
  )
  check()
  const written = copier.created.reduce((sum, p) => sum + p.size, 0)
  for (const id of skipped) {
    const pack = usage.find((u) => u.id === id)
    if (pack !== undefined) report.deadBytes += pack.size - pack.live
  }
  if (removed.length === 0) {
    report.deadBytes += written
    return report
  }
  const ops: MetaOp[] = [
    ...kept.map(({ move, at }) =>
      indexOp(move.hash, { ...move.location, pack: at.pack, offset: at.offset }),
    ),
    ...copier.created.map((p) => packLengthOp(p.id, p.size)),
    ...removed.map((id): MetaOp => ({ type: 'del', space: 'meta', key: packLengthKey(id) })),
  ]
  const removedBytes = removed.reduce((sum, id) => sum + (packs.get(id)?.size ?? 0), 0)
  await options.commit(ops)
  // Committed, the old packs not yet removed: the second hit of the point.
  crashPoint('mid-compaction')

  report.packsRewritten = rewritten.length
  report.packsRemoved = removed.length
  report.movedBytes = kept.reduce((sum, c) => sum + recordLength(c.move.location), 0)
  report.reclaimedBytes = removedBytes - written
  report.deadBytes += written - report.movedBytes
  await removePacks(context, removed)
  return report
}
