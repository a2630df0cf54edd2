import type { MetaStore } from '../meta/meta-store'
import type { CompressionOptions } from './chunk-codec'
import { assertChunkHash, encodeChunkRecord } from './chunk-record'
import type { ChunkRecord } from './chunk-record'
import type { StageItem, StageResult } from './chunk-store'
import type { PackAppender } from './pack-appender'
import { indexOp } from './pack-location'
import type { PackLocation } from './pack-location'
import type { StagingTable } from './staging-table'

/** A staged chunk: where its record is, and how long. */
export interface Staged {
  location: PackLocation
  /** Header plus stored bytes. */
  recordLength: number
}

/** What the stager uses of its pack store. */
export interface PackStagerContext {
  table: StagingTable<Staged>
  meta: MetaStore
  appender: PackAppender
  compression: CompressionOptions
  assertOpen(): void
  ioError(action: string, err: unknown): unknown
}

/** A chunk a stager stores, with how to settle its staging entry. */
interface Fresh {
  key: Uint8Array
  bytes: Uint8Array
  resolve(staged: Staged | undefined): void
  reject(err: unknown): void
}

/**
 * The pack store's `stageMany` (and `stage`, as a batch of one). The records of the chunks of
 * one call that are not stored yet are encoded together, then queued to the appender in one
 * synchronous loop, so no other writer's record lands between them: one upload's records sit
 * side by side in the pack, and a read of the file takes one large read.
 */
export function createPackStager(
  context: PackStagerContext,
): (items: readonly StageItem[]) => Promise<StageResult[]> {
  const { table, meta, appender, compression, assertOpen, ioError } = context

  /** Encodes the records of chunks not yet indexed and queues them back to back; settles each. */
  async function appendFresh(fresh: Fresh[]): Promise<void> {
    let records: (ChunkRecord | undefined)[]
    try {
      const indexed = await Promise.all(fresh.map(({ key }) => meta.get('chunkidx', key)))
      records = await Promise.all(
        fresh.map(({ key, bytes }, i) =>
          indexed[i] === undefined ? encodeChunkRecord(key, bytes, compression) : undefined,
        ),
      )
      assertOpen()
    } catch (err) {
      for (const item of fresh) item.reject(err)
      return
    }
    fresh.forEach((item, i) => {
      const record = records[i]
      if (record === undefined) {
        item.resolve(undefined)
        return
      }
      appender.append(record).then(
        (at) =>
          item.resolve({
            location: {
              pack: at.pack,
              offset: at.offset,
              codec: record.codec,
              rawLength: record.rawLength,
              storedLength: record.body.length,
            },
            recordLength: record.length,
          }),
        (err: unknown) => item.reject(ioError('write', err)),
      )
    })
  }

  return async function stageMany(items: readonly StageItem[]): Promise<StageResult[]> {
    assertOpen()
    for (const { hash } of items) assertChunkHash(hash)
    const fresh: Fresh[] = []
    // Entries are registered before any await, so concurrent stages of a hash share one.
    const entries = items.map(({ hash, bytes }) => {
      const existing = table.get(hash)
      if (existing !== undefined) return { key: hash.slice(), entry: existing, isFresh: false }
      const key = hash.slice()
      let settle: Pick<Fresh, 'resolve' | 'reject'> | undefined
      const entry = table.start(
        key,
        () => new Promise<Staged | undefined>((resolve, reject) => (settle = { resolve, reject })),
      )
      fresh.push({ key, bytes, ...(settle as Pick<Fresh, 'resolve' | 'reject'>) })
      return { key, entry, isFresh: true }
    })
    if (fresh.length > 0) void appendFresh(fresh)
    // Settles once every stage has (the caller may then reuse the bytes), with the first
    // failure if any; no rejection is left unhandled.
    const settled = await Promise.allSettled(entries.map(({ entry }) => entry.promise))
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failed !== undefined) throw failed.reason
    const staged = settled.map((s) => (s as PromiseFulfilledResult<Staged | undefined>).value)
    return entries.map(({ key, isFresh }, i): StageResult => {
      const done = staged[i]
      if (done === undefined) return { ops: [], isNew: false, storedBytes: 0 }
      const ops = [indexOp(key, done.location)]
      return isFresh
        ? { ops, isNew: true, storedBytes: done.recordLength }
        : { ops, isNew: false, storedBytes: 0 }
    })
  }
}
