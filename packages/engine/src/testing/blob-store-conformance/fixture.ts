import type { BlobStore } from '../../chunks/blob-store'

/** A blob store under test, with what the conformance suite needs to clean up. */
export interface BlobStoreFixture {
  /** An empty store of its own: no other test's objects are visible through it. */
  readonly store: BlobStore
  /**
   * Closes the store (unless it is closed already) and frees what the fixture holds (objects,
   * buckets, connections). The suite calls it after every test.
   */
  close(): Promise<void>
}

/** Makes a fresh, empty fixture for one test. */
export type BlobStoreFixtureFactory = () => Promise<BlobStoreFixture>

/** What each per-operation part of the suite gets from the runner. */
export interface BlobSuiteContext {
  /** A fresh fixture, closed after the test. */
  open(): Promise<BlobStoreFixture>
}
