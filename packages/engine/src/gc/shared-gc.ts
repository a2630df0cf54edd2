import type { ChunkSweep, SweepEntry, SweepRemoval } from '../chunks/chunk-sweep'
import { EngineError, isEngineError, throwIfAborted } from '../errors'
import { toHex } from '../internal/hex'
import { COUNTERS_KEY, dirHashOfRecordKey } from '../meta/keys'
import type { MetaGuard, MetaOp } from '../meta/meta-store'
import type { SharedState } from '../state/shared-state'
import { jsonValue } from '../state/stored-json'
import { markIndexes, scanObjects, versionRoots } from './collect-garbage'
import type { Candidate, GcOptions, GcProgress, GcResult, GcServices } from './collect-garbage'
import { Marker } from './marker'

/** Default grace period of a shared database's GC: chunks stored or reused more recently stay (1 h). */
export const DEFAULT_GC_GRACE_MS = 60 * 60 * 1000

/** Garbage removed per batch: each entry is a guard of it. */
const SWEEP_BATCH = 1024

/** Batches lost to other nodes' commits (or reuses) before a sweep batch waits for the next GC. */
const SWEEP_ATTEMPTS = 8

interface ChunkCandidate extends Candidate {
  kind: 'chunk'
  entry: SweepEntry
}

/** What one sweep batch did: committed or lost to another node's batch. */
type BatchOutcome = { removed: Candidate[]; removal: SweepRemoval | undefined } | undefined

/**
 * Garbage collection of a database several nodes share, run by one node at a time (the
 * caller holds the cluster's `gc` lock). Marks as `collectGarbage` does, from refs, the
 * version log and the HEAD log (which it does not prune). Objects and chunks no version
 * reaches are then removed in batches that are compare-and-sets on the commit token: a batch
 * lands only if no node committed since the marking caught up with it, else the state is
 * reloaded, marked again and the batch retried. A chunk goes only when its `last_seen` is
 * older than `graceMs` and unchanged since it was read (each entry guards the batch): a node
 * storing or reusing it refreshes `last_seen`, so uploads not committed yet are spared. No
 * pack compaction (chunk stores of shared databases have none).
 */
export async function collectSharedGarbage(
  core: GcServices,
  shared: SharedState,
  graceMs: number,
  options: GcOptions = {},
): Promise<GcResult> {
  core.assertOpen()
  const sweep = core.chunks.sweep
  if (sweep === undefined)
    throw new EngineError(
      'CONFLICT',
      'GC of a shared database needs a chunk store that records last_seen (create it with ' +
        '`lastSeen`); nothing was collected',
    )
  if (core.gc.running) throw new EngineError('CONFLICT', 'a garbage collection is already running')
  const started = performance.now()
  const { signal, onProgress } = options
  const dryRun = options.dryRun === true
  const report = async (progress: GcProgress) => {
    await onProgress?.(progress)
  }
  core.gc.start()
  try {
    await shared.refresh()
    const marker = new Marker(core.objects, signal, (done) => onProgress?.({ phase: 'mark', done }))
    let markedToken = -1
    let versionsScanned = 0
    /** Marks what the state in memory names, when it changed since; and what runs here pin. */
    const catchUp = async (): Promise<void> => {
      await marker.mark(core.gc.take())
      if (shared.token !== markedToken) {
        const token = shared.token
        const refs = [...core.state.refs.values()]
        const roots = await versionRoots(core, false)
        versionsScanned = Math.max(versionsScanned, roots.length)
        await marker.mark([...refs, ...roots])
        await markIndexes(core, marker)
        markedToken = token
      }
      await marker.markPinned(core.fence.pinnedKeys())
    }
    await catchUp()
    await report({ phase: 'scan', done: 0 })
    const cutoff = core.clock.now() - graceMs
    const candidates = await scanShared(core, sweep, marker, options, cutoff)
    const isGarbage = (c: Candidate) =>
      !marker.marked.has(c.hash) && !core.fence.isPinned(toHex(c.hash))
    let garbage: Candidate[] = []
    if (dryRun) {
      await core.committer.exclusive(catchUp)
      garbage = candidates.filter(isGarbage)
    } else {
      for (let i = 0; i < candidates.length; i += SWEEP_BATCH) {
        throwIfAborted(signal, 'garbage collection')
        await report({ phase: 'sweep', done: i, total: candidates.length })
        let batch = candidates.slice(i, i + SWEEP_BATCH)
        for (let attempt = 1; attempt <= SWEEP_ATTEMPTS && batch.length > 0; attempt++) {
          const outcome: BatchOutcome = await core.committer.exclusive(async () => {
            await catchUp()
            return sweepBatch(core, shared, sweep, markedToken, batch.filter(isGarbage))
          })
          if (outcome !== undefined) {
            garbage.push(...outcome.removed)
            // Past the commit the tombstones are written: finish them even when aborted.
            await outcome.removal?.afterCommit()
            break
          }
          await shared.reload()
          batch = await reread(sweep, batch, cutoff)
        }
      }
      await core.committer.exclusive(async () => {
        await catchUp()
        await dropDeadIndexes(core, shared, marker, markedToken)
      })
    }
    const reclaimedBytes = garbage.reduce((sum, c) => sum + c.storedBytes, 0)
    if (!dryRun) core.gc.reclaimed(reclaimedBytes)
    return {
      versionsScanned,
      liveEntries: marker.marked.size,
      garbageEntries: garbage.length,
      reclaimedBytes,
      durationMs: Math.round(performance.now() - started),
      dryRun,
      compaction: null,
    }
  } finally {
    core.gc.stop()
  }
}

/** Unmarked objects, and unmarked chunks whose `last_seen` is older than `cutoff`. */
async function scanShared(
  core: GcServices,
  sweep: ChunkSweep,
  marker: Marker,
  options: GcOptions,
  cutoff: number,
): Promise<Candidate[]> {
  const scanned = { n: 0 }
  const out = await scanObjects(core, marker, options, scanned)
  for await (const entry of sweep.entries()) {
    if (++scanned.n % 10_000 === 0) {
      throwIfAborted(options.signal, 'garbage collection')
      await options.onProgress?.({ phase: 'scan', done: scanned.n })
    }
    if (!marker.marked.has(entry.hash) && entry.lastSeen < cutoff) out.push(chunkCandidate(entry))
  }
  return out
}

function chunkCandidate(entry: SweepEntry): ChunkCandidate {
  const { hash, storedBytes, rawBytes } = entry
  return { hash, kind: 'chunk', storedBytes, rawBytes, entry }
}

/** The batch's chunks as stored now (after a lost batch): those still old enough stay. */
async function reread(
  sweep: ChunkSweep,
  batch: readonly Candidate[],
  cutoff: number,
): Promise<Candidate[]> {
  const chunks = batch.filter((c): c is ChunkCandidate => c.kind === 'chunk')
  const now = await sweep.reread(chunks.map((c) => c.entry))
  const fresh = now.flatMap((entry) =>
    entry !== undefined && entry.lastSeen < cutoff ? [chunkCandidate(entry)] : [],
  )
  return [...batch.filter((c) => c.kind === 'object'), ...fresh]
}

/**
 * Removes `doomed` in one batch guarded by the commit token the marking caught up with (and,
 * for chunks, by each entry as read); runs between local commit groups. `undefined` when the
 * batch lost to another node's.
 */
async function sweepBatch(
  core: GcServices,
  shared: SharedState,
  sweep: ChunkSweep,
  basis: number,
  doomed: readonly Candidate[],
): Promise<BatchOutcome> {
  if (doomed.length === 0) return { removed: [], removal: undefined }
  const ops: MetaOp[] = []
  const chunks: SweepEntry[] = []
  const tally = { chunks: 0, rawBytes: 0, storedBytes: 0 }
  for (const c of doomed) {
    if (c.kind === 'object') ops.push({ type: 'del', space: 'obj', key: c.hash })
    else {
      const { entry } = c as ChunkCandidate
      chunks.push(entry)
      if (!entry.live) continue
      tally.chunks += 1
      tally.rawBytes += entry.rawBytes
      tally.storedBytes += entry.storedBytes
    }
  }
  const removal = chunks.length === 0 ? undefined : sweep.removal(chunks)
  const counters = core.state.counters.withoutChunks(tally)
  ops.push(...(removal?.ops ?? []))
  ops.push({ type: 'put', space: 'meta', key: COUNTERS_KEY, value: jsonValue(counters) })
  if (!(await commitSealed(core, shared, basis, ops, removal?.guards ?? []))) return undefined
  if (shared.committed(basis)) core.state.counters.swept(counters)
  core.objects.evict(doomed.map((c) => toHex(c.hash)))
  return { removed: [...doomed], removal }
}

/** Deletes the index records of directory versions no longer live, if no node committed since the marking. */
async function dropDeadIndexes(
  core: GcServices,
  shared: SharedState,
  marker: Marker,
  basis: number,
): Promise<void> {
  const ops: MetaOp[] = []
  for await (const key of core.meta.keys('idx'))
    if (!marker.marked.has(dirHashOfRecordKey(key))) ops.push({ type: 'del', space: 'idx', key })
  // Lost to a commit: the next collection drops them.
  if (ops.length > 0 && (await commitSealed(core, shared, basis, ops, []))) shared.committed(basis)
}

/** Commits `ops` as a batch of the state of token `basis`; false when another batch won. */
async function commitSealed(
  core: GcServices,
  shared: SharedState,
  basis: number,
  ops: MetaOp[],
  guards: MetaGuard[],
): Promise<boolean> {
  const seal = shared.seal(basis)
  try {
    await core.meta.batch([...ops, ...seal.ops], {
      sync: true,
      guards: [...guards, ...seal.guards],
    })
    return true
  } catch (err) {
    if (isEngineError(err, 'CONFLICT')) return false
    throw err
  }
}
