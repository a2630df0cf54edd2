import type { HeadLogMark } from './head-log-record'

/** Storage a mutation added (or, negative, removed), summed per group for the persistent counters. */
export interface Tally {
  chunks: number
  rawBytes: number
  storedBytes: number
}

/** What is recorded with a snapshot or fork ref besides its root. */
export interface RefInfo {
  /** Unix milliseconds. */
  createdAt: number
  metadata?: Record<string, unknown>
  /** Hex hash of the version a fork started from. */
  base?: string
}

/** A committed ref move (`null`: absent before, or removed), for the version log and stats. */
export interface RefMove {
  ref: string
  from: Uint8Array | null
  to: Uint8Array | null
  at: number
  /** Info to record with the ref (a new snapshot or fork). */
  info?: RefInfo
  /** Set on a HEAD move that replaces history: recorded in the HEAD log, in the same batch. */
  headLog?: HeadLogMark
}
