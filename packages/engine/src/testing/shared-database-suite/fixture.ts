import type { Database } from '../../database'
import type { MetaStore } from '../../meta/meta-store'

/** Two nodes of one shared database under test, and what the suite needs to clean up. */
export interface SharedDatabaseFixture {
  /** One node: a `Database` opened with `shared: true`. */
  readonly a: Database
  /** Another node on the same backing store, opened the same way. */
  readonly b: Database
  /**
   * A third view of the backing store, through which the suite reads what the nodes wrote
   * (the version log, the commit token). The suite never closes it.
   */
  readonly meta: MetaStore
  /** Closes both nodes and `meta`, and frees what the fixture holds (schemas, connections). */
  close(): Promise<void>
}

/**
 * Makes two nodes of a fresh shared database for one test. They should open together
 * (`Promise.all`), so that creating the database races as nodes starting at once do.
 */
export type SharedDatabaseFixtureFactory = () => Promise<SharedDatabaseFixture>

/** What each part of the suite gets from the runner. */
export interface SharedDatabaseSuiteContext {
  /** A fresh fixture, closed after the test. */
  open(): Promise<SharedDatabaseFixture>
}

/** Decodes UTF-8. */
export const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)
