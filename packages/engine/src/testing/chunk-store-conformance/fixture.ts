import type { ChunkStore, StageResult } from '../../chunks/chunk-store'
import type { MetaStore } from '../../meta/meta-store'

/** A chunk store under test, with the hooks the conformance suite needs. */
export interface ChunkStoreFixture {
  readonly store: ChunkStore
  /** The metadata store the chunk store's ops are committed to. */
  readonly meta: MetaStore
  /** Damages the stored bytes of a committed chunk (one flipped byte), the store's own way. */
  corrupt(hash: Uint8Array): Promise<void>
  /** Bytes the store keeps for chunks (pack file sizes, record sizes…), to spot duplicates. */
  footprint(): Promise<number>
  /** Closes store and metadata, then opens both again on the same data. */
  reopen(): Promise<ChunkStoreFixture>
  /** Closes store and metadata for good. */
  close(): Promise<void>
  /**
   * False when `entries()` lists several spaces one after the other, each in hash order (the
   * tiered store), so the whole list is not sorted. Default true.
   */
  readonly entriesInHashOrder?: boolean
}

/** Makes a fresh, empty fixture for one test. */
export type ChunkStoreFixtureFactory = () => Promise<ChunkStoreFixture>

/** What each per-operation part of the suite gets from the runner. */
export interface ChunkSuiteContext {
  /** A fresh fixture, closed after the test. */
  open(): Promise<ChunkStoreFixture>
  /** Reopens `fixture`; the new one is closed after the test instead. */
  reopen(fixture: ChunkStoreFixture): Promise<ChunkStoreFixture>
  /** The hash a chunk is stored under. */
  idOf(bytes: Uint8Array): Promise<Uint8Array>
  /** Stages every chunk at once. */
  stageAll(fixture: ChunkStoreFixture, chunks: Uint8Array[]): Promise<StageResult[]>
  /** The group-commit protocol: flush, one synced batch, committed(). */
  commit(fixture: ChunkStoreFixture, results: StageResult[]): Promise<void>
}
