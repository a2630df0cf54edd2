import type { Cluster } from '../../cluster/cluster'

/** Nodes of one cluster under test, with what the conformance suite needs to clean up. */
export interface ClusterFixture {
  /** One node. */
  readonly a: Cluster
  /**
   * Another node of the same cluster, with another id; required when the suite runs with
   * `multiNode: true`, ignored otherwise.
   */
  readonly b?: Cluster
  /**
   * Closes the nodes (unless closed already) and frees what the fixture holds (schemas,
   * connections). The suite calls it after every test.
   */
  close(): Promise<void>
}

/** How the suite wants a fixture's nodes configured. */
export interface ClusterFixtureOptions {
  /** The staleness window every node of the fixture uses. */
  readonly staleAfterMs: number
}

/** Makes a fresh cluster, where no node has sent a heartbeat yet, for one test. */
export type ClusterFixtureFactory = (options: ClusterFixtureOptions) => Promise<ClusterFixture>

/** What a driver offers beyond one node; the suite tests it when declared. */
export interface ClusterSupports {
  /** Fixtures hand out two nodes (`a`, `b`) that see each other. */
  readonly multiNode: boolean
}

/** What each part of the suite gets from the runner. */
export interface ClusterSuiteContext {
  readonly supports: ClusterSupports
  /** A fresh fixture, closed after the test. */
  open(options?: Partial<ClusterFixtureOptions>): Promise<ClusterFixture>
}

/** The second node of a multi-node fixture. */
export function nodeB(fixture: ClusterFixture): Cluster {
  if (fixture.b === undefined) throw new Error('a multiNode fixture must hand out node b')
  return fixture.b
}
