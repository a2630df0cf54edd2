import type { CompactReport } from '../chunks/chunk-store'
import { COUNTERS_KEY, dirHashOfRecordKey } from '../meta/keys'
import { jsonValue } from '../state/stored-json'
import { readVersionLog } from '../state/version-log'
import { EngineError, throwIfAborted } from '../errors'
import { crashPoint } from '../internal/crash-point'
import { parseHash, toHex } from '../internal/hex'
import type { MetaOp } from '../meta/meta-store'
import { retainedHeadLogRoots } from '../versions/head-log'
import { Marker } from './marker'
import type { ChunkStore } from '../chunks/chunk-store'
import type { Committer } from '../commit/committer'
import type { GcFence } from '../commit/gc-fence'
import type { WritePath } from '../commit/write-path'
import type { MetaStore } from '../meta/meta-store'
import type { ObjectStore } from '../objects/object-store'
import type { DatabaseState } from '../state/database-state'
import type { GcWatch } from './gc-watch'
import type { HeadLogServices } from '../versions/head-log'

/** What garbage collection needs: storage, refs and counters, the committer (to run between groups), the write path (to hold uploads), the fence and its own watch. */
export interface GcServices extends HeadLogServices {
  assertOpen(): void
  readonly chunks: ChunkStore
  readonly committer: Committer
  readonly fence: GcFence
  readonly gc: GcWatch
  readonly meta: MetaStore
  readonly objects: ObjectStore
  readonly state: DatabaseState
  readonly writes: WritePath
}

/** Options of `db.gc()`. */
export interface GcOptions {
  /** Report what would be reclaimed, delete nothing. */
  dryRun?: boolean
  /** Cancels between steps with `ABORTED`; what was swept by then stays swept, consistently. */
  signal?: AbortSignal
  /**
   * Called as the collection advances. A returned promise pauses the collection until it
   * settles: a way to throttle GC against foreground work.
   */
  onProgress?(progress: GcProgress): void | Promise<void>
}

/** Where a collection is. */
export interface GcProgress {
  phase: 'mark' | 'scan' | 'sweep' | 'compact'
  done: number
  total?: number
}

/** What a collection found and did (DESIGN §3.6). */
export interface GcResult {
  /**
   * Versions marked from: refs (HEAD, snapshots, forks, imports), the version log and the
   * HEAD log's retention window.
   */
  versionsScanned: number
  /** Reachable objects and chunks. */
  liveEntries: number
  /** Unreachable objects and chunks: removed, or with `dryRun` removable. */
  garbageEntries: number
  /** Bytes of the garbage objects and chunks on storage. */
  reclaimedBytes: number
  durationMs: number
  dryRun: boolean
  /** What pack compaction did; `null` on a dry run or when writes kept it from starting. */
  compaction: CompactReport | null
}

/** An unmarked object or chunk. */
export interface Candidate {
  hash: Uint8Array
  kind: 'object' | 'chunk'
  storedBytes: number
  rawBytes: number
}

/** How long compaction holds new writes back while running ones finish. */
const COMPACT_WAIT_MS = 2000

/** Garbage removed per synced batch (each in its own short exclusive turn of the committer). */
const SWEEP_BATCH = 4096

/**
 * Online garbage collection (DESIGN §3.6). Marks from every ref, the version log and the
 * HEAD log's retention window, then
 * lists unmarked objects and chunks. Each sweep batch runs between commit groups: it first
 * marks from every root committed since marking began and from what running operations have
 * pinned (uploads, imports, exports), so nothing written, reused or about to be referenced
 * after the mark began is reclaimed. Finally pack files with much dead space are compacted.
 */
export async function collectGarbage(core: GcServices, options: GcOptions = {}): Promise<GcResult> {
  core.assertOpen()
  if (core.gc.running) throw new EngineError('CONFLICT', 'a garbage collection is already running')
  const started = performance.now()
  const { signal, onProgress } = options
  const dryRun = options.dryRun === true
  core.gc.start()
  try {
    const roots = await versionRoots(core, !dryRun)
    const marker = new Marker(core.objects, signal, (done) => onProgress?.({ phase: 'mark', done }))
    const report = async (progress: GcProgress) => {
      await onProgress?.(progress)
    }
    await marker.mark(roots)
    await markIndexes(core, marker)
    const catchUp = async () => {
      await marker.mark(core.gc.take())
      await marker.markPinned(core.fence.pinnedKeys())
      await markIndexes(core, marker)
    }
    await catchUp()
    await report({ phase: 'scan', done: 0 })
    const candidates = await scan(core, marker, options)
    let garbage = candidates
    if (dryRun) {
      await core.committer.exclusive(catchUp)
      garbage = candidates.filter(
        (c) => !marker.marked.has(c.hash) && !core.fence.isPinned(toHex(c.hash)),
      )
    } else {
      garbage = []
      for (let i = 0; i < candidates.length; i += SWEEP_BATCH) {
        throwIfAborted(signal, 'garbage collection')
        await report({ phase: 'sweep', done: i, total: candidates.length })
        const batch = candidates.slice(i, i + SWEEP_BATCH)
        garbage.push(
          ...(await core.committer.exclusive(async () => {
            await catchUp()
            return sweep(
              core,
              batch.filter((c) => !marker.marked.has(c.hash)),
            )
          })),
        )
      }
    }
    if (!dryRun) await core.committer.exclusive(() => dropDeadIndexes(core, marker))
    const compaction = dryRun ? null : await compact(core, options)
    const reclaimedBytes = garbage.reduce((sum, c) => sum + c.storedBytes, 0)
    if (!dryRun) core.gc.reclaimed(reclaimedBytes + (compaction?.reclaimedBytes ?? 0))
    return {
      versionsScanned: roots.length,
      liveEntries: marker.marked.size,
      garbageEntries: garbage.length,
      reclaimedBytes,
      durationMs: Math.round(performance.now() - started),
      dryRun,
      compaction,
    }
  } finally {
    core.gc.stop()
  }
}

/**
 * Marks the query indexes of every live directory version (DESIGN §3.8): an index record
 * lives as long as the directory tree it indexes.
 */
export async function markIndexes(core: GcServices, marker: Marker): Promise<void> {
  const roots: Uint8Array[] = []
  for await (const [key, value] of core.meta.iterate('idx')) {
    if (!marker.marked.has(dirHashOfRecordKey(key))) continue
    for (let at = 0; at + 32 <= value.length; at += 32) {
      const root = value.slice(at, at + 32)
      if (!marker.marked.has(root)) roots.push(root)
    }
  }
  await marker.mark(roots)
}

/** Deletes the index records of directory versions no longer live; runs between groups. */
async function dropDeadIndexes(core: GcServices, marker: Marker): Promise<void> {
  await marker.mark(core.gc.take())
  const ops: MetaOp[] = []
  for await (const key of core.meta.keys('idx'))
    if (!marker.marked.has(dirHashOfRecordKey(key))) ops.push({ type: 'del', space: 'idx', key })
  if (ops.length > 0) await core.meta.batch(ops, { sync: true })
}

/**
 * Distinct roots of every ref, of the version log window and of the HEAD log's retention
 * window (whose older records a real collection prunes first, durably, so that no record
 * outlives the versions it names).
 */
export async function versionRoots(core: GcServices, prune: boolean): Promise<Uint8Array[]> {
  const seen = await retainedHeadLogRoots(core, prune)
  for (const root of core.state.refs.values()) seen.add(toHex(root))
  for await (const record of readVersionLog(core.meta)) {
    if (record.from !== null) seen.add(record.from)
    if (record.to !== null) seen.add(record.to)
  }
  return [...seen].map(parseHash)
}

/** Unmarked stored objects and chunks. */
async function scan(core: GcServices, marker: Marker, options: GcOptions): Promise<Candidate[]> {
  const scanned = { n: 0 }
  const out: Candidate[] = await scanObjects(core, marker, options, scanned)
  let { n } = scanned
  for await (const entry of core.chunks.entries()) {
    if (++n % 10_000 === 0) {
      throwIfAborted(options.signal, 'garbage collection')
      await options.onProgress?.({ phase: 'scan', done: n })
    }
    if (!marker.marked.has(entry.hash)) {
      const raw = (entry as { rawBytes?: number }).rawBytes ?? entry.storedBytes
      out.push({ hash: entry.hash, kind: 'chunk', storedBytes: entry.storedBytes, rawBytes: raw })
    }
  }
  return out
}

/** Unmarked stored objects, with their sizes; counts what it reads in `scanned.n`. */
export async function scanObjects(
  core: GcServices,
  marker: Marker,
  options: GcOptions,
  scanned: { n: number },
): Promise<Candidate[]> {
  const out: Candidate[] = []
  const objects: Uint8Array[] = []
  for await (const hash of core.meta.keys('obj')) {
    if (++scanned.n % 10_000 === 0) {
      throwIfAborted(options.signal, 'garbage collection')
      await options.onProgress?.({ phase: 'scan', done: scanned.n })
    }
    if (!marker.marked.has(hash)) objects.push(hash)
  }
  // Sizes only for the garbage, which is usually a small part of the store.
  for (let i = 0; i < objects.length; i += 1024) {
    const batch = objects.slice(i, i + 1024)
    const values = await core.meta.getMany('obj', batch)
    values.forEach((bytes, j) => {
      if (bytes !== undefined)
        out.push({
          hash: batch[j] as Uint8Array,
          kind: 'object',
          storedBytes: bytes.length,
          rawBytes: 0,
        })
    })
  }
  return out
}

/** Removes a batch of garbage in one synced batch; runs with no commit group in progress. */
async function sweep(core: GcServices, batch: Candidate[]): Promise<Candidate[]> {
  const byKey = new Map(batch.map((c) => [toHex(c.hash), c]))
  const removed: Candidate[] = []
  await core.fence.sweep(byKey.keys(), async (keys) => {
    const ops: MetaOp[] = []
    const removedChunks = { chunks: 0, rawBytes: 0, storedBytes: 0 }
    for (const key of keys) {
      const c = byKey.get(key) as Candidate
      removed.push(c)
      if (c.kind === 'object') {
        ops.push({ type: 'del', space: 'obj', key: c.hash })
      } else {
        ops.push(...core.chunks.removeOps(c.hash))
        removedChunks.chunks += 1
        removedChunks.storedBytes += c.storedBytes
        removedChunks.rawBytes += c.rawBytes
      }
    }
    const counters = core.state.counters.withoutChunks(removedChunks)
    ops.push({ type: 'put', space: 'meta', key: COUNTERS_KEY, value: jsonValue(counters) })
    await core.meta.batch(ops, { sync: true })
    core.state.counters.swept(counters)
    core.objects.evict(keys)
    crashPoint('mid-gc-sweep')
  })
  return removed
}

/**
 * Compacts the chunk store. It may only start while no upload or import holds staged chunks
 * whose ops are not committed (see `ChunkStore.compact`): new ones are held back for up to
 * COMPACT_WAIT_MS while running ones finish; if they do not, compaction waits for the next
 * collection.
 */
async function compact(core: GcServices, options: GcOptions): Promise<CompactReport | null> {
  throwIfAborted(options.signal, 'garbage collection')
  const started = await core.writes.hold(COMPACT_WAIT_MS, () => {
    const run = core.chunks.compact({
      commit: (ops) => core.writes.submit({ apply: async () => ({ ops, result: undefined }) }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onProgress: (done, total) => void options.onProgress?.({ phase: 'compact', done, total }),
    })
    run.catch(() => undefined)
    return run
  })
  if (started === undefined) return null
  const report = await started.value
  await core.writes.submit({
    apply: async () => {
      core.state.counters.setVoidBytes(report.deadBytes)
      return { result: undefined }
    },
  })
  return report
}
