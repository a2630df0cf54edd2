import { EngineError } from '../errors'
import { toHex } from '../internal/hex'
import type { MetaStore } from '../meta/meta-store'
import { blobIndexOp, isBlobTombstone, tombstoneSince } from './blob-chunk-entry'
import type { BlobStaged } from './blob-chunk-read'
import { takeOverTombstone, TOMBSTONE_STALE_MS, TOMBSTONE_WAIT_MS } from './blob-tombstones'
import { assertChunkHash } from './chunk-record'
import type { StageItem, StageResult } from './chunk-store'
import type { LastSeen } from './last-seen'
import type { StagingTable } from './staging-table'

/** What the stager uses of its blob chunk store. */
export interface BlobStagerContext {
  table: StagingTable<BlobStaged>
  meta: MetaStore
  /** Encodes and puts one chunk's object; resolves once it is durable. */
  upload(hash: Uint8Array, bytes: Uint8Array): Promise<BlobStaged>
  /** Called for every chunk staged, before anything else (the running sweep spares it). */
  watch(hash: Uint8Array): void
  assertOpen(): void
  /** Set when the store records `last_seen` (see `LastSeenOptions`). */
  lastSeen?: LastSeen
}

/** How often a stage waiting for a GC's tombstone looks again, in ms. */
const TOMBSTONE_POLL_MS = 100

interface Fresh {
  key: Uint8Array
  bytes: Uint8Array
  resolve(staged: BlobStaged | undefined): void
  reject(err: unknown): void
}

const NOT_NEW: StageResult = { ops: [], isNew: false, storedBytes: 0 }

/**
 * The blob chunk store's `stageMany` (and `stage`, as a batch of one): the chunks of one call
 * that are not staged yet are looked up in the index with one `getMany` (one round trip to a
 * remote metadata store, not one per chunk), then those not indexed are uploaded side by side.
 */
export function createBlobStager(
  context: BlobStagerContext,
): (items: readonly StageItem[]) => Promise<StageResult[]> {
  const { table, meta, upload, watch, assertOpen, lastSeen } = context

  async function uploadFresh(fresh: Fresh[]): Promise<void> {
    let indexed: (Uint8Array | undefined)[]
    try {
      indexed = await meta.getMany(
        'chunkidx',
        fresh.map(({ key }) => key),
      )
    } catch (err) {
      for (const item of fresh) item.reject(err)
      return
    }
    fresh.forEach((item, i) => {
      const value = indexed[i]
      if (value === undefined) upload(item.key, item.bytes).then(item.resolve, item.reject)
      else if (lastSeen === undefined) item.resolve(undefined)
      else settleIndexed(item, value, lastSeen).then(item.resolve, item.reject)
    })
  }

  /**
   * A chunk the index holds: reused, so its `last_seen` is refreshed (guarded; losing to a
   * GC's removal means uploading again). A tombstone means a GC is deleting the object: wait
   * until it is gone (at most `TOMBSTONE_WAIT_MS`), then upload, never alongside the delete.
   * A stale one is taken over first (deleted, guarded on it): a GC listing it then loses its
   * batch instead of deleting the new upload, and the commit's entry lands on no tombstone.
   */
  async function settleIndexed(
    item: Fresh,
    found: Uint8Array,
    seen: LastSeen,
  ): Promise<BlobStaged | undefined> {
    let value: Uint8Array | undefined = found
    let waitUntil: number | undefined
    for (;;) {
      if (value === undefined) return upload(item.key, item.bytes)
      if (isBlobTombstone(value)) {
        const now = seen.clock.now()
        if (tombstoneSince(value) < now - TOMBSTONE_STALE_MS) {
          if (await takeOverTombstone(meta, item.key, value)) return upload(item.key, item.bytes)
        } else {
          waitUntil ??= now + TOMBSTONE_WAIT_MS
          if (now >= waitUntil)
            throw new EngineError(
              'CONFLICT',
              `chunk ${toHex(item.key)} is being removed by a garbage collection; try again`,
            )
          await new Promise((resolve) => setTimeout(resolve, TOMBSTONE_POLL_MS))
        }
        assertOpen()
        value = await meta.get('chunkidx', item.key)
        continue
      }
      if ((await seen.refresh(item.key, value)) !== undefined) return undefined
      value = await meta.get('chunkidx', item.key)
    }
  }

  return async function stageMany(items: readonly StageItem[]): Promise<StageResult[]> {
    assertOpen()
    for (const { hash } of items) assertChunkHash(hash)
    const fresh: Fresh[] = []
    // Entries are registered before any await, so concurrent stages of a hash share one.
    const entries = items.map(({ hash, bytes }) => {
      watch(hash)
      const key = hash.slice()
      const existing = table.get(hash)
      if (existing !== undefined) return { key, entry: existing, isFresh: false }
      let settle: Pick<Fresh, 'resolve' | 'reject'> | undefined
      const entry = table.start(
        key,
        () =>
          new Promise<BlobStaged | undefined>((resolve, reject) => (settle = { resolve, reject })),
      )
      fresh.push({ key, bytes, ...(settle as Pick<Fresh, 'resolve' | 'reject'>) })
      return { key, entry, isFresh: true }
    })
    if (fresh.length > 0) void uploadFresh(fresh)
    // Settles once every stage has (the caller may then reuse the bytes), with the first
    // failure if any; no rejection is left unhandled.
    const settled = await Promise.allSettled(entries.map(({ entry }) => entry.promise))
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failed !== undefined) throw failed.reason
    return entries.map(({ key, isFresh }, i): StageResult => {
      const staged = (settled[i] as PromiseFulfilledResult<BlobStaged | undefined>).value
      if (staged === undefined) return NOT_NEW
      const ops = [blobIndexOp(key, staged.entry, lastSeen?.clock.now())]
      return isFresh
        ? { ops, isNew: true, storedBytes: staged.objectSize }
        : { ops, isNew: false, storedBytes: 0 }
    })
  }
}
