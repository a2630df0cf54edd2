import { EngineError } from '@svcdb/engine'

/** Options of {@link createPostgresMetaStore}. */
export interface PostgresMetaStoreOptions {
  /** A libpq connection string: `postgres://user:password@host:port/database`. */
  connectionString: string
  /**
   * The schema holding the `kv` table (default `svcdb`), created when missing. Lowercase
   * letters, digits and `_`, starting with a letter or `_`, at most 63 characters: one
   * schema per database lets several share a PostgreSQL database.
   */
  schema?: string
  /**
   * Connections the store may open (default 10). Each iteration that runs past its first
   * page holds one until it ends.
   */
  poolSize?: number
  /**
   * Refuse to share the schema with another store (default `false`; the svcdb server passes
   * `true`). Opening takes a session advisory lock on the schema over a connection of its own,
   * held until `close()`, and fails with `LOCKED` while another store holds it. If that
   * connection ends while the store is open, the lock is gone: every later `batch` fails with
   * `LOCKED` (reads go on) and the lock is never taken again silently. Use it for a database
   * opened without the engine's `shared` mode: two such processes writing one schema would
   * corrupt it. Processes that all open it with `Database.open({ meta, shared: true })` may
   * share it without this lock.
   */
  exclusive?: boolean
  /**
   * Join the schema as one of several nodes (default `false`; the svcdb server passes `true`
   * with the engine's `shared` mode). Opening takes the schema's advisory lock in shared mode,
   * held until `close()`: members never exclude each other, but a store opened `exclusive`
   * (such as `svcdb-server reset-root-key`) is refused while any member is open, and members
   * are refused while it is. Losing that connection ends nothing for the member (its guarded
   * commits keep it correct); it only stops keeping exclusive openers out.
   */
  member?: boolean
}

/** {@link PostgresMetaStoreOptions} checked, with defaults filled in. */
export interface CheckedPostgresOptions {
  readonly connectionString: string
  readonly schema: string
  readonly poolSize: number
  readonly exclusive: boolean
  readonly member: boolean
}

/** The default schema. */
export const DEFAULT_SCHEMA = 'svcdb'
const DEFAULT_POOL_SIZE = 10
// Lowercase only: PostgreSQL folds unquoted names to lowercase, so the name a user types in
// psql is the name the store uses.
const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/

/** Checks `options` (`INVALID_INPUT` naming the bad one) and fills in the defaults. */
export function checkPostgresOptions(options: PostgresMetaStoreOptions): CheckedPostgresOptions {
  const {
    connectionString,
    schema = DEFAULT_SCHEMA,
    poolSize = DEFAULT_POOL_SIZE,
    exclusive = false,
    member = false,
  } = options
  if (typeof connectionString !== 'string' || connectionString.trim() === '')
    throw new EngineError('INVALID_INPUT', 'connectionString must be a non-empty string')
  if (typeof schema !== 'string' || !PLAIN_IDENTIFIER.test(schema))
    throw new EngineError(
      'INVALID_INPUT',
      `schema must be a plain lowercase identifier (a-z, 0-9, _; at most 63 characters, not ` +
        `starting with a digit), got ${JSON.stringify(schema)}`,
    )
  if (!Number.isSafeInteger(poolSize) || poolSize < 1)
    throw new EngineError('INVALID_INPUT', `poolSize must be a positive integer, got ${poolSize}`)
  if (typeof exclusive !== 'boolean')
    throw new EngineError('INVALID_INPUT', `exclusive must be a boolean, got ${String(exclusive)}`)
  if (typeof member !== 'boolean')
    throw new EngineError('INVALID_INPUT', `member must be a boolean, got ${String(member)}`)
  if (exclusive && member)
    throw new EngineError('INVALID_INPUT', 'exclusive and member exclude each other: pick one')
  return { connectionString, schema, poolSize, exclusive, member }
}
