import type { MetaStore } from '../meta/meta-store'
import type { BlobInfo, BlobStore } from './blob-store'
import { BLOB_CHUNK_PREFIX, hashOfBlobChunkKey } from './blob-chunk-key'
import type { CompactReport } from './chunk-store'
import { throwIfAborted } from './compact-options'

/** Objects checked against the index per metadata read (and deleted per call). */
const PAGE = 1000

/** What a sweep uses of its blob chunk store. */
export interface BlobSweepContext {
  meta: MetaStore
  blobs: BlobStore
  /** Objects last written before this (ms, the store's clock) may be orphans to delete. */
  cutoff: number
  /**
   * True while the store stages `hash` (in flight or not yet known committed), or staged it
   * at any time since the sweep started.
   */
  isStaged(hash: Uint8Array): boolean
  /**
   * Deletes in flight by object key; a stage of that key waits for its delete before its own
   * put, so the two never race at the service.
   */
  deleting: Map<string, Promise<void>>
  signal: AbortSignal | undefined
  assertOpen(): void
  ioError(action: string, err: unknown): unknown
}

interface Listed {
  info: BlobInfo
  hash: Uint8Array
}

/**
 * The blob chunk store's `compact()`: lists the objects under `chunks/` and deletes those the
 * index does not hold, that were last written before `cutoff`, and that the store did not
 * stage since the sweep started. Both the staging check and the index read happen after the
 * object was listed, the staging check again just before the delete is issued (no await in
 * between), so a stage of the chunk either is seen and wins, or waits for the delete and
 * uploads again. Objects another node uploaded but has not committed yet are younger than the
 * grace period: kept, counted as dead bytes.
 *
 * Safe on one node only. Across nodes one race is left: node A lists an old orphan, node B
 * uploads the same chunk again (its index entry was gone) and A deletes it before B's commit
 * lands, leaving B's index naming a missing object. So the GC of a shared database does not
 * run it: it removes objects through `ChunkStore.sweep` (tombstone, delete, tombstone
 * delete), and objects that never got an index entry stay.
 */
export async function sweepOrphans(context: BlobSweepContext): Promise<CompactReport> {
  const report: CompactReport = {
    packsRewritten: 0,
    packsRemoved: 0,
    movedBytes: 0,
    reclaimedBytes: 0,
    deadBytes: 0,
  }
  let page: Listed[] = []
  try {
    for await (const info of context.blobs.list(BLOB_CHUNK_PREFIX)) {
      const hash = hashOfBlobChunkKey(info.key)
      if (hash === undefined) continue
      page.push({ info, hash })
      if (page.length === PAGE) {
        await sweepPage(context, page, report)
        page = []
      }
    }
    await sweepPage(context, page, report)
  } catch (err) {
    throw context.ioError('sweep', err)
  }
  return report
}

async function sweepPage(
  context: BlobSweepContext,
  page: readonly Listed[],
  report: CompactReport,
): Promise<void> {
  const { meta, blobs, cutoff, isStaged, deleting, signal } = context
  if (page.length === 0) return
  context.assertOpen()
  throwIfAborted(signal)
  const stagedBefore = page.map(({ hash }) => isStaged(hash))
  const indexed = await meta.getMany(
    'chunkidx',
    page.map(({ hash }) => hash),
  )
  context.assertOpen()
  throwIfAborted(signal)
  // From here to the delete call, no await: a stage starting later sees `deleting`.
  const doomed: BlobInfo[] = []
  page.forEach(({ info, hash }, i) => {
    if (indexed[i] !== undefined) return
    if (stagedBefore[i] === true || info.modified >= cutoff || isStaged(hash)) {
      report.deadBytes += info.size
      return
    }
    doomed.push(info)
  })
  if (doomed.length === 0) return
  const keys = doomed.map(({ key }) => key)
  const done = blobs.delete(keys)
  const settled = done.then(
    () => undefined,
    () => undefined,
  )
  for (const key of keys) deleting.set(key, settled)
  try {
    await done
  } catch (err) {
    throw context.ioError('delete', err)
  } finally {
    for (const key of keys) if (deleting.get(key) === settled) deleting.delete(key)
  }
  report.packsRemoved += doomed.length
  for (const { size } of doomed) report.reclaimedBytes += size
}
