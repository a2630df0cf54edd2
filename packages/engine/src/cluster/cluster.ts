/** What a node reports about itself with {@link Cluster.heartbeat}. */
export interface HeartbeatInfo {
  /** The URL other nodes and peers reach this node at. */
  url?: string
  /** The software version the node runs. */
  version?: string
}

/** One node of a cluster, as {@link Cluster.nodes} lists it. */
export interface NodeInfo {
  /** The node's id ({@link Cluster.nodeId}). */
  readonly id: string
  /** The URL of its latest heartbeat that gave one. */
  readonly url: string | undefined
  /** The version of its latest heartbeat that gave one. */
  readonly version: string | undefined
  /** When its latest heartbeat landed, on the shared clock (Unix milliseconds). */
  readonly lastSeen: number
  /**
   * The shared clock minus the node's own clock, in milliseconds, as estimated at its latest
   * heartbeat: a positive offset means the node's clock is behind.
   */
  readonly offsetMs: number
  /** Whether its latest heartbeat is within the staleness window. */
  readonly alive: boolean
}

/**
 * Membership of the nodes sharing one deployment, and the clock they share. Drivers:
 * `createLocalCluster()` (one node, the process clock), `createPostgresCluster()` from
 * `@svcdb/postgres` (the `nodes` table and the database's clock).
 *
 * Every call fails with `INVALID_INPUT` for a malformed argument and `CLOSED` once closed;
 * drivers over a network fail with `IO_ERROR` when it does.
 */
export interface Cluster {
  /** This node's id, unique in the cluster. */
  readonly nodeId: string
  /**
   * Records that this node is alive now (on the shared clock), with `info` and its current
   * clock offset. Fields of `info` left out keep the values of earlier heartbeats. Call it
   * periodically, well within the staleness window.
   */
  heartbeat(info?: HeartbeatInfo): Promise<void>
  /**
   * Every node that has sent a heartbeat, ordered by id; those whose latest heartbeat is
   * older than the staleness window are listed with `alive: false`.
   */
  nodes(): Promise<NodeInfo[]>
  /**
   * The shared clock in Unix milliseconds: this node's clock corrected by its estimated
   * offset (measured on first use and at every heartbeat). Never goes backwards within one
   * `Cluster`. Stamp records and compare times across nodes with it, never order by it:
   * order by sequence numbers.
   */
  now(): Promise<number>
  /** Frees the object's resources; later calls fail with `CLOSED`. Idempotent. */
  close(): Promise<void>
}
