import type { ChunkStore } from '../chunks/chunk-store'
import type { ObjectStore } from '../objects/object-store'
import type { QueryOptions, QueryResult } from './query-types'
import type { ReadBufferPool } from './read-buffer-pool'

/** Options of `createReadStream`: an inclusive byte range. */
export interface ReadStreamOptions {
  start?: number
  end?: number
}

/** What reads need from the database, plus a probe to measure them. */
export interface ViewContext {
  objects: ObjectStore
  chunks: ChunkStore
  /** Reports a finished read of `bytes`, for throughput and latency stats. */
  onRead?(bytes: number, ms: number): void
  /** Buffers that `OpenedEntry.parts` reads large files into, reused; new ones when absent. */
  readBuffers?: ReadBufferPool
  /** Throws `CLOSED` once the database is closed. */
  assertOpen(): void
  /** Answers a query over the version whose root is `root`; records its latency. */
  query(root: Uint8Array, options: QueryOptions): Promise<QueryResult>
}
