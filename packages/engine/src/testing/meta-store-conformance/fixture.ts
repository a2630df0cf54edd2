import type { MetaStore } from '../../meta/meta-store'

/** A metadata store under test, with the hooks the conformance suite needs. */
export interface MetaStoreFixture {
  readonly store: MetaStore
  /** Closes the store (unless it is closed already), then opens a new one on the same data. */
  reopen(): Promise<MetaStoreFixture>
  /**
   * Closes the store (unless it is closed already) and frees what the fixture holds (temp
   * directories, connections). The suite calls it after every test.
   */
  close(): Promise<void>
  /**
   * Opens another store on the same data, as another process (node) would; the fixture
   * closes it. Needed when the implementation supports `watch`.
   */
  peer?(): Promise<MetaStore>
}

/** Makes a fresh, empty fixture for one test. */
export type MetaStoreFixtureFactory = () => Promise<MetaStoreFixture>

/**
 * What an implementation offers beyond the {@link MetaStore} contract every implementation
 * meets; the suite checks each declared feature and does not expect the others.
 */
export interface MetaStoreSupports {
  /**
   * Each iteration (`iterate`, `keys`) reads one snapshot, taken at the latest when its first
   * entry is read: batches committed while it runs are not seen. Without it an iteration
   * still yields every key the writes leave alone, once and in order.
   */
  readonly snapshots: boolean
  /**
   * `watch` is implemented: a listener hears of every guarded batch committed through any
   * store on the same data (the fixture's `peer`), its own included, and nothing once it has
   * stopped. The suite's part for it is the `Bus` conformance of the scale-out design: nodes
   * learn of each other's commits through it and read what changed from the store.
   */
  readonly watch?: boolean
}

/** What each per-operation part of the suite gets from the runner. */
export interface MetaSuiteContext {
  readonly supports: MetaStoreSupports
  /** A fresh fixture, closed after the test. */
  open(): Promise<MetaStoreFixture>
  /** Reopens `fixture`; the new one is closed after the test instead. */
  reopen(fixture: MetaStoreFixture): Promise<MetaStoreFixture>
}
