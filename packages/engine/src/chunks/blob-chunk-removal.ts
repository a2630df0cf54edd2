import type { MetaGuard, MetaOp, MetaStore } from '../meta/meta-store'
import type { BlobStore } from './blob-store'
import {
  blobObjectSize,
  blobTombstone,
  decodeBlobChunkEntry,
  isBlobTombstone,
  tombstoneSince,
} from './blob-chunk-entry'
import { blobChunkKey } from './blob-chunk-key'
import type { ChunkSweep, SweepEntry } from './chunk-sweep'
import type { LastSeen } from './last-seen'
import { blobLastSeenCodec } from './blob-chunk-entry'
import { ABANDONED_TOMBSTONE, rewriteTombstones, TOMBSTONE_DELETE_MS } from './blob-tombstones'

/** What a blob store's {@link ChunkSweep} uses of its store. */
export interface BlobRemovalContext {
  meta: MetaStore
  blobs: BlobStore
  lastSeen: LastSeen
  /** Forgets a staged entry of the chunk (its removal makes it stale). */
  forget(hash: Uint8Array): void
  /** Deletes in flight by object key: this node's stages of that key wait for them. */
  deleting: Map<string, Promise<void>>
  ioError(action: string, err: unknown): unknown
}

function sweepEntryOf(hash: Uint8Array, value: Uint8Array): SweepEntry {
  if (isBlobTombstone(value))
    return {
      hash,
      space: 'chunkidx',
      value,
      lastSeen: tombstoneSince(value),
      live: false,
      storedBytes: 0,
      rawBytes: 0,
    }
  const entry = decodeBlobChunkEntry(value)
  return {
    hash,
    space: 'chunkidx',
    value,
    lastSeen: blobLastSeenCodec.lastSeenOf(value) ?? 0,
    live: true,
    storedBytes: blobObjectSize(entry),
    rawBytes: entry.rawLength,
  }
}

/**
 * The blob chunk store's {@link ChunkSweep}, in three steps so that a node never uploads a
 * chunk while a GC deletes its object: the GC's batch replaces each index entry by a
 * tombstone (guarded on the entry read), then the objects are deleted, then the tombstones
 * (guarded on themselves). A stage finding a tombstone waits for it to go; `has()` and reads
 * take it for absent. A GC dying between the steps leaves tombstones, which the next GC
 * finishes (they are listed like entries, with the time their removal began). A stale one
 * (`TOMBSTONE_STALE_MS`) a stage takes over, guarded on it, before uploading again; so the
 * objects are deleted only while the tombstones are young (`TOMBSTONE_DELETE_MS`), else, and
 * when the delete fails, the GC abandons them (stale at once) for the next GC.
 */
export function blobChunkSweep(context: BlobRemovalContext): ChunkSweep {
  const { meta, blobs, lastSeen, deleting } = context
  return {
    refreshMs: lastSeen.refreshMs,
    async *entries() {
      for await (const [hash, value] of meta.iterate('chunkidx')) yield sweepEntryOf(hash, value)
    },
    async reread(entries) {
      const values = await meta.getMany(
        'chunkidx',
        entries.map(({ hash }) => hash),
      )
      return values.map((value, i) =>
        value === undefined ? undefined : sweepEntryOf((entries[i] as SweepEntry).hash, value),
      )
    },
    removal(entries) {
      const tombstone = blobTombstone(lastSeen.clock.now())
      const ops: MetaOp[] = []
      const guards: MetaGuard[] = []
      for (const { hash, value } of entries) {
        context.forget(hash)
        ops.push({ type: 'put', space: 'chunkidx', key: hash.slice(), value: tombstone })
        guards.push({ space: 'chunkidx', key: hash, expect: value })
      }
      return {
        ops,
        guards,
        afterCommit: () => deleteObjects(entries, tombstone),
      }
    },
  }

  async function deleteObjects(
    entries: readonly SweepEntry[],
    tombstone: Uint8Array,
  ): Promise<void> {
    if (entries.length === 0) return
    const hashes = entries.map(({ hash }) => hash)
    const abandon = () =>
      rewriteTombstones(meta, hashes, tombstone, (key) => ({
        type: 'put',
        space: 'chunkidx',
        key,
        value: ABANDONED_TOMBSTONE,
      }))
    // Stalled since the batch (slow store, paused process): a stage may take these tombstones
    // over soon and upload again, so this delete could land after its upload. Leave them.
    if (lastSeen.clock.now() - tombstoneSince(tombstone) >= TOMBSTONE_DELETE_MS) {
      await abandon()
      return
    }
    const keys = hashes.map((hash) => blobChunkKey(hash))
    const done = blobs.delete(keys)
    const settled = done.then(
      () => undefined,
      () => undefined,
    )
    for (const key of keys) deleting.set(key, settled)
    try {
      await done
    } catch (err) {
      // Stages need not wait for these tombstones any more; the next GC deletes again.
      await abandon().catch(() => undefined)
      throw context.ioError('delete', err)
    } finally {
      for (const key of keys) if (deleting.get(key) === settled) deleting.delete(key)
    }
    // A stage may have taken some over (a stale tombstone): those are left alone.
    await rewriteTombstones(meta, hashes, tombstone, (key) => ({
      type: 'del',
      space: 'chunkidx',
      key,
    }))
  }
}
