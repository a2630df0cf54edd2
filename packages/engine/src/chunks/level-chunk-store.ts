import { EngineError } from '../errors'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import type { CompressionOptions } from './chunk-codec'
import {
  assertChunkHash,
  decodeChunkRecordHeader,
  encodeChunkRecord,
  joinChunkRecord,
  openChunkRecord,
} from './chunk-record'
import type { ChunkStore, StageResult } from './chunk-store'
import { checkCompactOptions, throwIfAborted } from './compact-options'
import type { ChunkSweep, SweepEntry } from './chunk-sweep'
import { createLastSeen } from './last-seen'
import type { LastSeen, LastSeenOptions } from './last-seen'
import { levelLastSeenCodec, splitLevelRecord, stampLevelRecord } from './level-last-seen'
import { stagedChunks } from './staged-chunks'
import { StagingTable } from './staging-table'

/** Options of {@link createLevelChunkStore}. */
export interface LevelChunkStoreOptions {
  /** The metadata store whose `chunk` space holds the records. */
  meta: MetaStore
  compression?: CompressionOptions
  /**
   * Records when each chunk was last stored or reused (8 bytes after each record), for the
   * GC of a database several nodes share (see {@link ChunkStore.sweep}). Default: not
   * recorded, no `sweep`.
   */
  lastSeen?: LastSeenOptions
}

interface Staged {
  /** The whole record, as put by the op (header + stored bytes). */
  record: Uint8Array
  op: MetaOp
}

/**
 * A {@link ChunkStore} that keeps every chunk as a framed record (same codec and CRC as pack
 * files) in the metadata store's `chunk` space. The record travels in the op `stage()`
 * returns, so it becomes durable with the caller's batch and `flush()` has nothing to do.
 * Meant for memory-level and small databases: on disk, LevelDB compaction rewrites values and
 * caps bulk throughput far below pack files (DESIGN §3.1).
 */
export function createLevelChunkStore(options: LevelChunkStoreOptions): ChunkStore {
  const { meta, compression = {} } = options
  const table = new StagingTable<Staged>()
  let closed = false

  const assertOpen = (): void => {
    if (closed) throw new EngineError('CLOSED', 'the chunk store is closed')
  }

  const lastSeen =
    options.lastSeen === undefined
      ? undefined
      : createLastSeen(meta, 'chunk', levelLastSeenCodec, options.lastSeen)

  const shared = stagedChunks({
    table,
    meta,
    space: 'chunk',
    stagedRawLength: (staged) => decodeChunkRecordHeader(staged.record).rawLength,
    committedRawLength: (record) => decodeChunkRecordHeader(record).rawLength,
    assertOpen,
    ...(lastSeen === undefined ? {} : { lastSeen }),
  })

  /** True when the chunk is committed (stamped as reused when `last_seen` is recorded). */
  const isCommitted = async (key: Uint8Array): Promise<boolean> => {
    const value = await meta.get('chunk', key)
    if (value === undefined || lastSeen === undefined) return value !== undefined
    return (await lastSeen.refresh(key, value)) !== undefined
  }

  return {
    kind: 'level',
    has: shared.has,
    rawSize: shared.rawSize,

    async read(hash) {
      assertOpen()
      assertChunkHash(hash)
      const staged = (await table.settled(hash))?.record
      // A copy of a staged record: the caller may keep or change what it reads, the op may not.
      const record = staged?.slice() ?? (await meta.get('chunk', hash))
      if (record === undefined) {
        throw new EngineError(
          'NOT_FOUND',
          `chunk ${Buffer.from(hash).toString('hex')} is not stored`,
        )
      }
      return openChunkRecord(lastSeen === undefined ? record : splitLevelRecord(record).record, {
        hash,
      })
    },

    async stage(hash, bytes): Promise<StageResult> {
      assertOpen()
      assertChunkHash(hash)
      const existing = table.get(hash)
      if (existing !== undefined) {
        const staged = await existing.promise
        return { ops: staged === undefined ? [] : [staged.op], isNew: false, storedBytes: 0 }
      }
      const key = hash.slice()
      const entry = table.start(key, async () => {
        if (await isCommitted(key)) return undefined
        const joined = joinChunkRecord(await encodeChunkRecord(key, bytes, compression))
        const record =
          lastSeen === undefined ? joined : stampLevelRecord(joined, lastSeen.clock.now())
        return { record, op: { type: 'put', space: 'chunk', key, value: record } }
      })
      const staged = await entry.promise
      if (staged === undefined) return { ops: [], isNew: false, storedBytes: 0 }
      return { ops: [staged.op], isNew: true, storedBytes: staged.record.length }
    },

    async *entries() {
      assertOpen()
      for await (const [hash, record] of meta.iterate('chunk')) {
        yield { hash, storedBytes: record.length }
      }
    },

    removeOps: shared.removeOps,

    ...(lastSeen === undefined ? {} : { sweep: levelSweep(meta, table, lastSeen) }),

    async compact(options) {
      assertOpen()
      checkCompactOptions(options)
      throwIfAborted(options.signal)
      // Records live in the metadata store, whose own compaction reclaims deleted ones.
      return { packsRewritten: 0, packsRemoved: 0, movedBytes: 0, reclaimedBytes: 0, deadBytes: 0 }
    },

    async flush() {
      assertOpen()
      table.flushed(table.mark())
      return []
    },

    committed: shared.committed,

    async close() {
      closed = true
      table.clear()
    },
  }
}

function sweepEntryOf(hash: Uint8Array, value: Uint8Array): SweepEntry {
  return {
    hash,
    space: 'chunk',
    value,
    lastSeen: splitLevelRecord(value).lastSeen,
    live: true,
    storedBytes: value.length,
    rawBytes: decodeChunkRecordHeader(value).rawLength,
  }
}

/** The level store's {@link ChunkSweep}: a guarded delete of each record, nothing after. */
function levelSweep(meta: MetaStore, table: StagingTable<Staged>, lastSeen: LastSeen): ChunkSweep {
  return {
    refreshMs: lastSeen.refreshMs,
    async *entries() {
      for await (const [hash, value] of meta.iterate('chunk')) yield sweepEntryOf(hash, value)
    },
    async reread(entries) {
      const values = await meta.getMany(
        'chunk',
        entries.map(({ hash }) => hash),
      )
      return values.map((value, i) =>
        value === undefined ? undefined : sweepEntryOf((entries[i] as SweepEntry).hash, value),
      )
    },
    removal(entries) {
      for (const { hash } of entries) table.forget(hash)
      return {
        ops: entries.map(({ hash }) => ({ type: 'del', space: 'chunk', key: hash.slice() })),
        guards: entries.map(({ hash, value }) => ({ space: 'chunk', key: hash, expect: value })),
        afterCommit: () => Promise.resolve(),
      }
    },
  }
}
