import type { LogFormat, LogLevel } from '../logger'
import type { PeerConfig } from './peer-flags'

/** How callers are authenticated (spec "Modes"). */
export type AuthMode =
  | { kind: 'disabled' }
  | { kind: 'self-contained' }
  /** Identity kept in a separate database at `path`. */
  | { kind: 'file'; path: string }

/**
 * Where the database lives: in `dataDir` (LevelDB and pack files, the default), or shared by
 * several nodes: metadata in PostgreSQL and chunks in S3 (`--meta`, `--chunks`; DESIGN §11).
 * Without `chunks`, chunks are kept in PostgreSQL too (small databases only).
 */
export type StorageConfig =
  { kind: 'embedded' } | { kind: 'shared'; meta: string; chunks: string | undefined }

/** Everything the server is started with. */
export interface ServerConfig {
  /** The database's directory, or with shared storage the node's local scratch space. */
  dataDir: string
  /** Where the database lives: in `dataDir`, or in PostgreSQL and S3. */
  storage: StorageConfig
  host: string
  /** 0 picks a free port; the bound one is announced on standard output. */
  port: number
  auth: AuthMode
  /** Development mode: magic links are logged instead of mailed. */
  dev: boolean
  nodeId: number
  metricsIntervalMs: number
  corsOrigins: string[]
  logLevel: LogLevel
  /** `json`, `pretty`, or `auto`: pretty when standard error is a terminal, else JSON. */
  logFormat: LogFormat | 'auto'
  /** Allows `--auth disabled` on a non-loopback host. */
  unsafePublic: boolean
  /** Webhook destinations that may be called (none by default: no request leaves the server). */
  webhookAllow: string[]
  /** How long versions that promotes, imports and restores replaced stay undoable (HEAD log). */
  headLogRetentionMs: number
  /** Serves the web console at `/console/` (and redirects `/` there). */
  console: boolean
  /** Deployments this one pulls changes from (`--peer`); none by default. */
  peers: PeerConfig[]
  /** How often each peer is pulled when its event stream is down (`--peer-interval`). */
  peerIntervalMs: number
}

/** Defaults of DESIGN §7. */
export const DEFAULT_SERVER_CONFIG: ServerConfig = {
  dataDir: './data',
  storage: { kind: 'embedded' },
  host: '127.0.0.1',
  port: 6830,
  auth: { kind: 'self-contained' },
  dev: false,
  nodeId: 0,
  metricsIntervalMs: 15_000,
  corsOrigins: [],
  logLevel: 'info',
  logFormat: 'auto',
  unsafePublic: false,
  webhookAllow: [],
  headLogRetentionMs: 30 * 24 * 60 * 60 * 1000,
  console: true,
  peers: [],
  peerIntervalMs: 15_000,
}
