import { isEngineError } from '../errors'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import { blobTombstone } from './blob-chunk-entry'

/**
 * A tombstone older than this is taken for the leftover of a GC that died (or stalled) between
 * its steps: a stage takes it over (deletes it, guarded on it) and uploads the chunk again.
 */
export const TOMBSTONE_STALE_MS = 5 * 60 * 1000

/**
 * A GC deletes the objects of its tombstones only while they are younger than this (checked
 * right before the delete is sent): half the staleness period, so the delete has that long to
 * land before any stage may take a tombstone over and upload again.
 */
export const TOMBSTONE_DELETE_MS = TOMBSTONE_STALE_MS / 2

/**
 * How long a stage waits for a young tombstone before failing with a retryable `CONFLICT`
 * (a GC deletes a batch of objects in seconds; a write request should not hang for minutes).
 */
export const TOMBSTONE_WAIT_MS = 30 * 1000

/**
 * The tombstone a GC leaves when it gives its removal up (its delete failed, or it stalled too
 * long to send it): dated 0, it is stale at once, so a stage takes it over without waiting,
 * and the next GC lists it and deletes the object again.
 */
export const ABANDONED_TOMBSTONE: Uint8Array = blobTombstone(0)

/**
 * Takes over the tombstone `expect` of chunk `key`: deletes it, guarded on it, so a GC whose
 * batch expects that same tombstone can no longer win (and one that already replaced it makes
 * this fail). False when the entry was no longer `expect`.
 */
export async function takeOverTombstone(
  meta: MetaStore,
  key: Uint8Array,
  expect: Uint8Array,
): Promise<boolean> {
  try {
    await meta.batch([{ type: 'del', space: 'chunkidx', key: key.slice() }], {
      sync: true,
      guards: [{ space: 'chunkidx', key, expect }],
    })
    return true
  } catch (err) {
    if (isEngineError(err, 'CONFLICT')) return false
    throw err
  }
}

/**
 * Writes `op` for each of `keys` where the entry is still `expect` (a GC's own tombstone):
 * one batch, or key by key when a stage took some over meanwhile (those are left alone).
 */
export async function rewriteTombstones(
  meta: MetaStore,
  keys: readonly Uint8Array[],
  expect: Uint8Array,
  op: (key: Uint8Array) => MetaOp,
): Promise<void> {
  const writes = keys.map((key) => ({
    op: op(key.slice()),
    guard: { space: 'chunkidx', key, expect } as const,
  }))
  try {
    await meta.batch(
      writes.map(({ op }) => op),
      { sync: true, guards: writes.map(({ guard }) => guard) },
    )
  } catch (err) {
    if (!isEngineError(err, 'CONFLICT')) throw err
    for (const { op, guard } of writes) {
      await meta.batch([op], { sync: true, guards: [guard] }).catch((e: unknown) => {
        if (!isEngineError(e, 'CONFLICT')) throw e
      })
    }
  }
}
