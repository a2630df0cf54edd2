import type { AbstractLevel } from 'abstract-level'
import type { ChunkStore } from './chunks/chunk-store'
import { createLevelChunkStore } from './chunks/level-chunk-store'
import type { Leases } from './cluster/leases'
import type { LeasedGcSettings } from './gc/leased-gc'
import { DEFAULT_GC_GRACE_MS } from './gc/shared-gc'
import { CHUNK_SIZES } from './chunking/fastcdc'
import { EngineCore } from './engine-core'
import type { Clock } from './internal/clock'
import { EngineError, isEngineError } from './errors'
import { createHasher } from './hashing/create-hasher'
import type { HashAlgorithm } from './hashing/hasher'
import { ObjectStore, WriteSet } from './objects/object-store'
import { rootPage } from './objects/root-page'
import { pageTotals } from './objects/tree-objects'
import { DatabaseState, readVersionState } from './state/database-state'
import { readCommitToken, sealWithToken } from './state/commit-token'
import { CONSISTENT_READ_ATTEMPTS } from './state/shared-state'
import { DATABASE_FORMAT_VERSION, readFormat, upgradeFormat } from './state/format-record'
import { jsonValue } from './state/stored-json'
import { VERSION_LOG_LIMIT } from './state/version-log'
import type { MetaOp, MetaStore } from './meta/meta-store'
import { givenStorage, openDiskStorage, openLevelStorage } from './storage/open-storage'
import type { Storage } from './storage/open-storage'
import { DEFAULT_HEAD_LOG_RETENTION_MS } from './versions/head-log'
import { FORMAT_KEY, HEAD } from './meta/keys'

/**
 * Options of {@link Database.open}: a directory on disk, any abstract-level database, or a
 * metadata store (with, optionally, a chunk store) the caller opened. Exactly one of `path`,
 * `level` and `meta`.
 */
export interface DatabaseOptions {
  /** Data directory: LevelDB metadata in `meta/`, chunk bytes in pack files in `packs/`. */
  path?: string
  /** An abstract-level database (memory-level, say) holding metadata and chunks alike. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  level?: AbstractLevel<any, any, any>
  /**
   * A metadata store the caller opened (`createPostgresMetaStore()` from `@svcdb/postgres`,
   * `createLevelMetaStore()`...). Without `chunks`, chunks live in it too, as with `level`.
   * The database owns it from here on: `db.close()` closes it, and so does an open that fails.
   * Not with `path` or `level` (`INVALID_INPUT`).
   */
  meta?: MetaStore
  /**
   * With `meta` only (`INVALID_INPUT` otherwise): where chunk bytes live. A chunk store keeps
   * its index (or its records) in the metadata store, whose batches commit what it stages, so
   * it must have been made over this same `meta`. Closed with the database, like `meta`.
   */
  chunks?: ChunkStore
  /** Hash algorithm of a new database (default `sha256`); an existing one keeps its own. */
  hashAlgorithm?: HashAlgorithm
  clock?: Clock
  /** Memory for decoded tree objects (default 64 MiB). */
  cacheBytes?: number
  /** On disk: memory for recently read small chunks (default 32 MiB; 0 turns it off). */
  chunkCacheBytes?: number
  /**
   * Ref moves kept in the version log (default 10,000). The log feeds history and keeps
   * recent versions alive through GC: a smaller window lets GC reclaim overwritten data
   * sooner.
   */
  versionLogLimit?: number
  /**
   * How long versions named in the HEAD log (promotes, fork promotes, imports with promote,
   * snapshot restores) are kept from GC, so that such a move can be undone (default 30 days).
   * Records older than this are pruned by GC.
   */
  headLogRetentionMs?: number
  /**
   * On disk: a pack file takes no more appends past this size (default 1 GiB). GC compacts
   * only packs no longer appended to, so smaller packs give space back sooner.
   */
  packSizeLimit?: number
  /**
   * For several processes (nodes) opening one database on a shared `meta` (PostgreSQL, say):
   * they then act as one database. Every batch that moves refs is a compare-and-set on a
   * commit token, so a node that committed on a state another node had moved since applies
   * its writes again on the new state (no update is lost; a conditional write is decided on
   * the newest state), and reads of HEAD and named refs first check the token (one read) and
   * reload when another node committed. `gc()` runs only with `leases`, one node at a time.
   * Needs `meta` (`INVALID_INPUT` with `path` or `level`); every process must open it shared.
   * Without `chunks`, the chunks live in `meta` and record `last_seen` (see `gcGraceMs`); a
   * chunk store passed in should be made with `lastSeen` for `gc()` to run.
   */
  shared?: boolean
  /**
   * With `shared`: the cluster's leases (`createPostgresLeases()` from `@svcdb/postgres`).
   * `gc()` then runs while holding their `gc` lock, so one node collects at a time, and
   * fails with `CONFLICT` while another node holds it; without leases, `gc()` of a shared
   * database is refused with `CONFLICT`. The database does not close them.
   */
  leases?: Leases
  /**
   * With `shared`: how long a chunk no version names is kept after a node last stored or
   * reused it (its `last_seen`), in ms (default 1 h). It protects uploads in progress on
   * every node (chunks sent, or confirmed present, before the commit naming them), so it
   * must exceed the longest such upload, and be at least twice the chunk store's
   * `lastSeen.refreshMs` (`RangeError` otherwise).
   */
  gcGraceMs?: number
  /**
   * With `shared`: how often, in ms, a node with change listeners (`onChange`, `changes()`)
   * reads the commit token to notice other nodes' commits, which its listeners then receive
   * in commit order (default 250). When `meta` says when writes happen (`MetaStore.watch`,
   * as PostgreSQL's LISTEN/NOTIFY does), the node refreshes at once instead and this poll
   * runs at most every 5 s, as a fallback. The timer runs only while someone listens, never
   * keeps the process alive, and stops at `close()`. A positive number (`RangeError`
   * otherwise); ignored when not shared.
   */
  sharedPollMs?: number
}

const systemClock: Clock = { now: () => Date.now() }

/** The storage `options` name (checked first by `checkStorageOptions`), opened. */
export async function openStorageFor(options: DatabaseOptions): Promise<Storage> {
  if (options.meta !== undefined) {
    const { meta, clock, gcGraceMs } = options
    // A shared database's chunks record last_seen for its GC, refreshed at a quarter of the
    // grace (a grace leasedGcSettings refuses gets the default here).
    const grace = typeof gcGraceMs === 'number' && gcGraceMs >= 4 ? gcGraceMs : DEFAULT_GC_GRACE_MS
    const lastSeen = { refreshMs: Math.floor(grace / 4), ...(clock === undefined ? {} : { clock }) }
    const chunks =
      options.chunks ??
      (options.shared === true ? createLevelChunkStore({ meta, lastSeen }) : undefined)
    return givenStorage(meta, chunks)
  }
  if (options.path === undefined)
    return openLevelStorage(options.level as NonNullable<DatabaseOptions['level']>)
  return openDiskStorage(options.path, {
    ...(options.packSizeLimit === undefined ? {} : { packSizeLimit: options.packSizeLimit }),
    ...(options.chunkCacheBytes === undefined ? {} : { chunkCacheBytes: options.chunkCacheBytes }),
  })
}

/**
 * Reads (or, for a new database, writes) the format record, loads refs and counters, and
 * assembles the engine core over `storage`.
 */
export async function openCore(
  { meta, chunks }: Storage,
  options: DatabaseOptions,
): Promise<EngineCore> {
  const clock = options.clock ?? systemClock
  let format = await readFormat(meta)
  if (
    format !== undefined &&
    options.hashAlgorithm !== undefined &&
    options.hashAlgorithm !== format.hashAlgorithm
  ) {
    throw new EngineError(
      'CONFLICT',
      `this database was created with ${format.hashAlgorithm}, not ${options.hashAlgorithm}`,
    )
  }
  const hasher = await createHasher(format?.hashAlgorithm ?? options.hashAlgorithm ?? 'sha256')
  const objects = new ObjectStore(meta, hasher, options.cacheBytes ?? 64 << 20)
  if (format !== undefined) format = await upgradeFormat(meta, format)
  else {
    format = {
      formatVersion: DATABASE_FORMAT_VERSION,
      hashAlgorithm: hasher.algorithm,
      chunker: { min: CHUNK_SIZES.minSize, avg: CHUNK_SIZES.avgSize, max: CHUNK_SIZES.maxSize },
      createdAt: clock.now(),
    }
    const init = new WriteSet(objects)
    const root = init.put({ type: 'leaf', entries: [] })
    const ops: MetaOp[] = [
      ...init.ops(),
      { type: 'put', space: 'ref', key: HEAD, value: root },
      { type: 'put', space: 'meta', key: FORMAT_KEY, value: jsonValue(format) },
    ]
    if (options.shared !== true) await meta.batch(ops, { sync: true })
    else {
      // Nodes creating the database at once: one creates it, the others open what it made.
      const seal = sealWithToken(0)
      try {
        await meta.batch([...ops, ...seal.ops], { sync: true, guards: seal.guards })
      } catch (err) {
        if (!isEngineError(err, 'CONFLICT')) throw err
        format = await readFormat(meta)
        if (format === undefined) throw err
        if (format.hashAlgorithm !== hasher.algorithm)
          throw new EngineError(
            'CONFLICT',
            `this database was created with ${format.hashAlgorithm}, not ${hasher.algorithm}`,
          )
      }
    }
  }
  const limit = options.versionLogLimit ?? VERSION_LOG_LIMIT
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new RangeError(`versionLogLimit must be a non-negative integer, got ${limit}`)
  const headLogRetentionMs = options.headLogRetentionMs ?? DEFAULT_HEAD_LOG_RETENTION_MS
  if (!Number.isSafeInteger(headLogRetentionMs) || headLogRetentionMs < 0)
    throw new RangeError(
      `headLogRetentionMs must be a non-negative integer, got ${headLogRetentionMs}`,
    )
  const { sharedPollMs } = options
  if (sharedPollMs !== undefined && !(typeof sharedPollMs === 'number' && sharedPollMs > 0))
    throw new RangeError(`sharedPollMs must be a positive number, got ${String(sharedPollMs)}`)
  let state: DatabaseState
  let sharedToken: number | undefined
  if (options.shared === true) {
    // The token first: a state newer than its token only costs a retried batch, never a lost one.
    ;({ state, token: sharedToken } = await loadShared(meta, limit))
  } else state = await DatabaseState.load(meta, limit)
  const head = state.refs.get(HEAD)
  if (head === undefined) throw new EngineError('CONTENT_CORRUPT', 'the database has no HEAD ref')
  const headTotals = pageTotals(await rootPage(objects, head))
  let indexesInUse = false
  for await (const _key of meta.keys('idx', { limit: 1 })) indexesInUse = true
  return new EngineCore({
    meta,
    chunks,
    objects,
    state,
    format,
    clock,
    headTotals,
    indexesInUse,
    headLogRetentionMs,
    ...(sharedToken === undefined ? {} : { sharedToken }),
    ...(sharedToken === undefined || sharedPollMs === undefined ? {} : { sharedPollMs }),
  })
}

/**
 * A shared database's state with the token it is the state of: token, state, token, until
 * both tokens agree (or, after a few tries, under the first one: the next batch then loses and
 * reloads). Not trimmed to `versionLogLimit` here: commit batches trim as they go, and a
 * batch outside the commit path would race the other nodes'.
 */
async function loadShared(
  meta: MetaStore,
  limit: number,
): Promise<{ state: DatabaseState; token: number }> {
  for (let attempt = 1; ; attempt++) {
    const token = await readCommitToken(meta)
    const stored = await readVersionState(meta)
    if (attempt < CONSISTENT_READ_ATTEMPTS && (await readCommitToken(meta)) !== token) continue
    return { state: DatabaseState.of(stored, limit), token }
  }
}

/**
 * Exactly one of `path`, `level` and `meta`; `chunks` only with `meta`. Nothing passed in is
 * closed when the combination is refused: the database never took it.
 */
export function checkStorageOptions(options: DatabaseOptions): void {
  if (options.shared === true && options.meta === undefined)
    throw new EngineError(
      'INVALID_INPUT',
      'Database.open takes `shared` only with `meta`: a database at `path` or `level` belongs ' +
        'to one process; several share a database through a shared metadata store',
    )
  if (options.meta !== undefined) {
    const other = options.path !== undefined ? 'path' : options.level !== undefined ? 'level' : ''
    if (other !== '')
      throw new EngineError(
        'INVALID_INPUT',
        `Database.open takes \`meta\` or \`${other}\`, not both: \`meta\` is where the ` +
          `metadata lives, as \`${other}\` is`,
      )
    return
  }
  if (options.chunks !== undefined)
    throw new EngineError(
      'INVALID_INPUT',
      'Database.open takes `chunks` only with `meta`: a chunk store keeps its index in the ' +
        'metadata store it was made over',
    )
  if ((options.path === undefined) === (options.level === undefined))
    throw new TypeError('Database.open needs exactly one of `path`, `level` and `meta`')
}

/**
 * How `gc()` of a shared database runs (`undefined`: refused), from `leases` and `gcGraceMs`
 * checked against the chunk store's `last_seen` refresh.
 */
export function leasedGcSettings(
  options: Pick<DatabaseOptions, 'shared' | 'leases' | 'gcGraceMs'>,
  chunks: ChunkStore,
): LeasedGcSettings | undefined {
  const graceMs = options.gcGraceMs ?? DEFAULT_GC_GRACE_MS
  if (!(Number.isSafeInteger(graceMs) && graceMs > 0))
    throw new RangeError(`gcGraceMs must be a positive integer, got ${String(graceMs)}`)
  const refreshMs = chunks.sweep?.refreshMs
  if (refreshMs !== undefined && graceMs < 2 * refreshMs)
    throw new RangeError(
      `gcGraceMs (${graceMs}) must be at least twice the chunk store's lastSeen.refreshMs (${refreshMs})`,
    )
  if (options.shared !== true || options.leases === undefined) return undefined
  return { leases: options.leases, graceMs }
}
