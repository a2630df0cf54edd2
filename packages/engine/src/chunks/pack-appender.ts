import { crashPoint } from '../internal/crash-point'
import type { ChunkRecord } from './chunk-record'
import { PackFile } from './pack-file'
import type { PackFileSystem } from './pack-file-system'

/** Where an appended record landed. */
export interface AppendedAt {
  pack: number
  offset: number
}

/** A pack made durable by {@link PackAppender.sync}, with its length at that moment. */
export interface SyncedPack {
  pack: number
  length: number
}

interface Pending {
  record: ChunkRecord
  resolve(at: AppendedAt): void
  reject(err: unknown): void
}

interface Waiter {
  until: number
  resolve(): void
}

/** At most this many records (or bytes) go into one positional writev. */
const MAX_BATCH_RECORDS = 512
const MAX_BATCH_BYTES = 16 * 1024 * 1024

/**
 * The single writer of the pack directory. Records queue up and are written in order by one
 * loop, coalesced into a single positional `writev` per batch, so a pack's written size is
 * always the end of its last complete record. The active pack rotates when the next record
 * would take it past `sizeLimit` (a larger record gets a pack of its own).
 */
export class PackAppender {
  readonly #queue: Pending[] = []
  readonly #dirty = new Set<PackFile>()
  readonly #waiters: Waiter[] = []
  #enqueued = 0
  #done = 0
  #running = false
  readonly #files: PackFileSystem
  readonly #dir: string
  readonly #packs: Map<number, PackFile>
  readonly #sizeLimit: number
  #active: PackFile | undefined
  #nextId: number

  /**
   * `packs` is the store's map of open packs; new packs are added to it. `active` is the pack
   * to continue appending to, if any.
   */
  constructor(
    files: PackFileSystem,
    dir: string,
    packs: Map<number, PackFile>,
    options: { active: PackFile | undefined; nextId: number; sizeLimit: number },
  ) {
    this.#files = files
    this.#dir = dir
    this.#packs = packs
    this.#active = options.active
    this.#nextId = options.nextId
    this.#sizeLimit = options.sizeLimit
  }

  /** Queues a record; resolves once it is written (not yet durable: see {@link sync}). */
  append(record: ChunkRecord): Promise<AppendedAt> {
    return new Promise<AppendedAt>((resolve, reject) => {
      this.#queue.push({ record, resolve, reject })
      this.#enqueued++
      if (!this.#running) {
        this.#running = true
        void this.#drain()
      }
    })
  }

  /** Resolves once every record queued before the call has been written (or has failed). */
  barrier(): Promise<void> {
    const until = this.#enqueued
    if (this.#done >= until) return Promise.resolve()
    return new Promise((resolve) => this.#waiters.push({ until, resolve }))
  }

  /**
   * Writes out what was queued before the call, then fdatasyncs every pack written since the
   * last sync and returns each one's length as of the sync. On failure the packs are retired
   * (never appended to again: after a failed fsync their page cache cannot be trusted).
   */
  async sync(): Promise<SyncedPack[]> {
    await this.barrier()
    const packs = [...this.#dirty]
    this.#dirty.clear()
    const lengths = packs.map((p) => p.size)
    try {
      await Promise.all(packs.map((p) => p.datasync()))
    } catch (err) {
      if (this.#active !== undefined && packs.includes(this.#active)) this.#active = undefined
      throw err
    }
    if (packs.length > 0) crashPoint('after-pack-fdatasync')
    return packs.map((p, i) => ({ pack: p.id, length: lengths[i] as number }))
  }

  /** The id of the pack appends go to next, if one is open for appends. */
  get activeId(): number | undefined {
    return this.#active?.id
  }

  /**
   * Creates an empty pack with the next id for another writer (compaction copies): it is
   * added to the packs map, so reads find it, but never appended to here.
   */
  async createPack(): Promise<PackFile> {
    const id = this.#nextId++
    const pack = await PackFile.create(this.#files, this.#dir, id)
    this.#packs.set(id, pack)
    return pack
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#take()
      try {
        await this.#writeBatch(batch)
      } catch (err) {
        for (const item of batch) item.reject(err)
      }
      this.#done += batch.length
      this.#wake()
    }
    this.#running = false
  }

  #take(): Pending[] {
    let bytes = 0
    let count = 0
    while (count < this.#queue.length && count < MAX_BATCH_RECORDS && bytes < MAX_BATCH_BYTES) {
      bytes += (this.#queue[count] as Pending).record.length
      count++
    }
    return this.#queue.splice(0, count)
  }

  /** Writes a batch, one writev per pack it touches; settles every item it handles. */
  async #writeBatch(batch: Pending[]): Promise<void> {
    let i = 0
    while (i < batch.length) {
      const pack = await this.#packFor((batch[i] as Pending).record.length)
      const base = pack.size
      const group: Pending[] = []
      const buffers: Uint8Array[] = []
      let length = 0
      while (i < batch.length) {
        const item = batch[i] as Pending
        if (group.length > 0 && base + length + item.record.length > this.#sizeLimit) break
        group.push(item)
        buffers.push(item.record.header, item.record.body)
        length += item.record.length
        i++
      }
      try {
        await pack.write(buffers, base)
      } catch (err) {
        // Nothing advanced: the next write lands at the same offset, over any partial bytes.
        for (const item of group) item.reject(err)
        continue
      }
      pack.size = base + length
      this.#dirty.add(pack)
      crashPoint('after-chunk-append')
      let offset = base
      for (const item of group) {
        item.resolve({ pack: pack.id, offset })
        offset += item.record.length
      }
    }
  }

  /** The pack the next record of `length` bytes goes to, rotating when it would not fit. */
  async #packFor(length: number): Promise<PackFile> {
    const active = this.#active
    if (active !== undefined && (active.size === 0 || active.size + length <= this.#sizeLimit)) {
      return active
    }
    const pack = await this.createPack()
    this.#active = pack
    return pack
  }

  #wake(): void {
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const waiter = this.#waiters[i] as Waiter
      if (waiter.until <= this.#done) {
        this.#waiters.splice(i, 1)
        waiter.resolve()
      }
    }
  }
}
