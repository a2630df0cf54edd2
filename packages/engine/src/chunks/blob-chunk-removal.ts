import { isEngineError } from '../errors'
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
 * finishes (they are listed like entries, with the time their removal began).
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
    const keys = entries.map(({ hash }) => blobChunkKey(hash))
    const done = blobs.delete(keys)
    const settled = done.then(
      () => undefined,
      () => undefined,
    )
    for (const key of keys) deleting.set(key, settled)
    try {
      await done
    } catch (err) {
      // The tombstones stay: the next GC deletes the objects again.
      throw context.ioError('delete', err)
    } finally {
      for (const key of keys) if (deleting.get(key) === settled) deleting.delete(key)
    }
    const dels = entries.map(({ hash }) => ({
      op: { type: 'del', space: 'chunkidx', key: hash.slice() } as const,
      guard: { space: 'chunkidx', key: hash, expect: tombstone } as const,
    }))
    try {
      await meta.batch(
        dels.map(({ op }) => op),
        { sync: true, guards: dels.map(({ guard }) => guard) },
      )
    } catch (err) {
      if (!isEngineError(err, 'CONFLICT')) throw err
      // A stage that found a stale tombstone replaced one: clear the others one by one.
      for (const { op, guard } of dels) {
        await meta.batch([op], { sync: true, guards: [guard] }).catch((e: unknown) => {
          if (!isEngineError(e, 'CONFLICT')) throw e
        })
      }
    }
  }
}
