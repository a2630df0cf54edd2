import type { AbstractLevel } from 'abstract-level'
import type { ChunkStore } from './chunks/chunk-store'
import { CHUNK_SIZES } from './chunking/fastcdc'
import { Committer } from './commit/committer'
import type { Mutation } from './commit/committer'
import { DATABASE_FORMAT_VERSION, DatabaseState, jsonValue, readFormat } from './database-state'
import type { FormatRecord } from './database-state'
import type { Entry } from './entry'
import { EngineError } from './errors'
import { createHasher } from './hashing/create-hasher'
import type { HashAlgorithm } from './hashing/hasher'
import { parseHash, toHex } from './internal/hex'
import type { MetaStore } from './meta/meta-store'
import { ObjectStore, WriteSet } from './objects/object-store'
import { pageTotals } from './objects/tree-objects'
import type { Totals } from './objects/tree-objects'
import { normalizePath } from './path/db-path'
import { TreeView } from './read/tree-view'
import type { ListOptions, ReadStreamOptions, StatOptions, ViewContext } from './read/tree-view'
import type { EngineStats } from './stats/engine-stats'
import { DatabaseMeters } from './stats/database-meters'
import { openDiskStorage, openLevelStorage } from './storage/open-storage'
import type { Storage } from './storage/open-storage'
import { ingest } from './write/ingest'
import {
  deleteMutation,
  mkdirMutation,
  relocateMutation,
  symlinkMutation,
  writeFileMutation,
} from './write/mutations'
import type { WriteFileOptions } from './write/mutations'
import type { WriteData } from './write/write-data'

/** A source of the current time in Unix milliseconds; injectable for tests. */
export interface Clock {
  now(): number
}

/** Options of {@link Database.open}: a directory on disk, or any abstract-level database. */
export interface DatabaseOptions {
  /** Data directory: LevelDB metadata in `meta/`, chunk bytes in pack files in `packs/`. */
  path?: string
  /** An abstract-level database (memory-level, say) holding metadata and chunks alike. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  level?: AbstractLevel<any, any, any>
  /** Hash algorithm of a new database (default `sha256`); an existing one keeps its own. */
  hashAlgorithm?: HashAlgorithm
  clock?: Clock
  /** Memory for decoded tree objects (default 64 MiB). */
  cacheBytes?: number
}

/** What a file write returns: the entry written, the version produced, and whether it is new. */
export type WriteResult = Entry & { version: string; created: boolean }

/** What a delete, move, copy, mkdir or symlink returns. */
export interface ChangeResult {
  path: string
  entryType: Entry['entryType']
  version: string
}

const HEAD = 'HEAD'
const systemClock: Clock = { now: () => Date.now() }

/**
 * A versioned, content-addressed file database (DESIGN §3). Every write produces a new
 * version; `head()` is the current one and `at(version)` reads any stored one.
 *
 * @example
 * const db = await Database.open({ path: './data' })
 * await db.writeFile('/notes/today.md', '# hello', { contentType: 'text/markdown' })
 * console.log(new TextDecoder().decode(await db.readFile('/notes/today.md')))
 * await db.close()
 */
export class Database {
  private closed = false
  private readonly committer: Committer
  private readonly view: ViewContext
  private headTotals: Totals
  private pendingWrites = 0
  private readonly meters: DatabaseMeters

  private constructor(
    private readonly meta: MetaStore,
    private readonly chunks: ChunkStore,
    private readonly objects: ObjectStore,
    private readonly state: DatabaseState,
    private readonly format: FormatRecord,
    private readonly clock: Clock,
    headTotals: Totals,
  ) {
    this.headTotals = headTotals
    const now = () => clock.now()
    this.meters = new DatabaseMeters(now)
    this.view = {
      objects,
      chunks,
      assertOpen: () => this.assertOpen(),
      onRead: (bytes, ms) => this.meters.read(bytes, ms),
    }
    this.committer = new Committer({
      meta,
      objects,
      chunks,
      now,
      rootOf: (ref) => this.rootOf(ref),
      groupOps: (moves, tally) => state.groupOps(moves, tally),
      onCommitted: (moves, tally) => {
        state.committed(moves, tally)
        if (moves.some((m) => m.ref === HEAD)) this.refreshHeadTotals()
      },
      onFlush: (ms) => this.meters.latency.flush.record(ms),
    })
  }

  /** Opens (creating when absent) a database on disk (`path`) or in an abstract-level database (`level`). */
  static async open(options: DatabaseOptions): Promise<Database> {
    if ((options.path === undefined) === (options.level === undefined)) {
      throw new TypeError('Database.open needs exactly one of `path` and `level`')
    }
    const storage: Storage =
      options.path !== undefined
        ? await openDiskStorage(options.path)
        : await openLevelStorage(options.level as NonNullable<DatabaseOptions['level']>)
    try {
      return await Database.start(storage, options)
    } catch (err) {
      await storage.chunks.close().catch(() => undefined)
      await storage.meta.close().catch(() => undefined)
      throw err
    }
  }

  private static async start(
    { meta, chunks }: Storage,
    options: DatabaseOptions,
  ): Promise<Database> {
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
    if (format === undefined) {
      format = {
        formatVersion: DATABASE_FORMAT_VERSION,
        hashAlgorithm: hasher.algorithm,
        chunker: { min: CHUNK_SIZES.minSize, avg: CHUNK_SIZES.avgSize, max: CHUNK_SIZES.maxSize },
        createdAt: clock.now(),
      }
      const init = new WriteSet(objects)
      const root = init.put({ type: 'leaf', entries: [] })
      await meta.batch(
        [
          ...init.ops(),
          { type: 'put', space: 'ref', key: HEAD, value: root },
          { type: 'put', space: 'meta', key: 'format', value: jsonValue(format) },
        ],
        { sync: true },
      )
    }
    const state = await DatabaseState.load(meta)
    const head = state.refs.get(HEAD)
    if (head === undefined) throw new EngineError('CONTENT_CORRUPT', 'the database has no HEAD ref')
    const totals = pageTotals(await asDirPage(objects, head))
    return new Database(meta, chunks, objects, state, format, clock, totals)
  }

  /** Hex hash of the current version. */
  head(): string {
    return toHex(this.rootOf(HEAD))
  }

  /**
   * A read-only view of a stored version (`INVALID_HASH` for a malformed hash; reads of an
   * unknown version fail with `NOT_FOUND`).
   */
  at(version: string): TreeView {
    this.assertOpen()
    return new TreeView(this.view, parseHash(version))
  }

  async stat(path: string, options?: StatOptions): Promise<Entry> {
    return this.current().stat(path, options)
  }

  async readFile(path: string): Promise<Uint8Array> {
    return this.current().readFile(path)
  }

  createReadStream(path: string, options?: ReadStreamOptions): ReadableStream<Uint8Array> {
    return this.current().createReadStream(path, options)
  }

  async *list(dir: string, options?: ListOptions): AsyncGenerator<Entry> {
    yield* this.current().list(dir, options)
  }

  async readlink(path: string): Promise<string> {
    return this.current().readlink(path)
  }

  /**
   * Writes a file (creating parent directories) and resolves once it is durable. Content is
   * streamed through the chunker; only chunks not already stored take space.
   */
  async writeFile(
    path: string,
    data: WriteData,
    options: WriteFileOptions = {},
  ): Promise<WriteResult> {
    this.assertOpen()
    const target = normalizePath(path)
    const started = performance.now()
    const content = await ingest(data, this.chunks, this.objects.hasher, options.signal)
    this.meters.chunksIngested(content.chunks.length, content.newChunks)
    let outcome
    try {
      outcome = await this.submit(writeFileMutation(HEAD, target, content, options))
    } catch (err) {
      this.state.counters.voidBytes += content.newStoredBytes
      throw err
    }
    this.meters.write(content.size, performance.now() - started)
    const { entry, file } = outcome
    const result: WriteResult = {
      path: target,
      name: entry.name,
      entryType: 'file',
      size: entry.size,
      hash: toHex(file.contentHash),
      contentType: file.contentType,
      createdAt: entry.createdAt,
      updatedAt: entry.updatedAt,
      version: outcome.version,
      created: outcome.created,
    }
    if (options.metadata !== undefined) result.metadata = options.metadata
    return result
  }

  /** Creates a directory and its parents (an existing directory is fine). */
  async mkdir(path: string): Promise<ChangeResult> {
    const target = normalizePath(path)
    const version = await this.submit(mkdirMutation(HEAD, target))
    return { path: target, entryType: 'directory', version }
  }

  /** Deletes a file, symlink or empty directory; a non-empty directory needs `recursive`. */
  async delete(path: string, options: { recursive?: boolean } = {}): Promise<ChangeResult> {
    const target = normalizePath(path)
    const { entry, version } = await this.submit(
      deleteMutation(HEAD, target, options.recursive ?? false),
    )
    return { path: target, entryType: entry.kind, version }
  }

  /** Moves an entry; the target must not exist. No content is copied. */
  async move(from: string, to: string): Promise<ChangeResult> {
    const target = normalizePath(to)
    const { entry, version } = await this.submit(
      relocateMutation(HEAD, normalizePath(from), target, false),
    )
    return { path: target, entryType: entry.kind, version }
  }

  /** Copies an entry by reference; the target must not exist. */
  async copy(from: string, to: string): Promise<ChangeResult> {
    const target = normalizePath(to)
    const { entry, version } = await this.submit(
      relocateMutation(HEAD, normalizePath(from), target, true),
    )
    return { path: target, entryType: entry.kind, version }
  }

  /** Creates or replaces a symlink at `path` pointing at `target` (absolute, or relative to the link's directory). */
  async symlink(path: string, target: string): Promise<ChangeResult> {
    const at = normalizePath(path)
    const { version } = await this.submit(symlinkMutation(HEAD, at, target))
    return { path: at, entryType: 'symlink', version }
  }

  /** The counters of DESIGN §3.7, in constant time. */
  stats(): EngineStats {
    return this.meters.snapshot({
      hashAlgorithm: this.format.hashAlgorithm,
      chunkSize: this.format.chunker.avg,
      counters: this.state.counters,
      head: this.headTotals,
      pendingWrites: this.pendingWrites,
    })
  }

  /** Waits for pending writes, then releases the storage. Later calls fail with `CLOSED`. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.committer.idle()
    await this.chunks.close()
    await this.meta.close()
  }

  private current(): TreeView {
    this.assertOpen()
    return new TreeView(this.view, this.rootOf(HEAD))
  }

  private async submit<T>(mutation: Mutation<T>): Promise<T> {
    this.assertOpen()
    this.pendingWrites++
    try {
      return await this.committer.submit(mutation)
    } finally {
      this.pendingWrites--
    }
  }

  private rootOf(ref: string): Uint8Array {
    const root = this.state.refs.get(ref)
    if (root === undefined) throw new EngineError('NOT_FOUND', `no ref ${ref}`)
    return root
  }

  private refreshHeadTotals(): void {
    const head = this.rootOf(HEAD)
    // The new root page was just committed, so it is normally in the cache.
    const cached = this.objects.peek(head)
    if (cached !== undefined && (cached.type === 'leaf' || cached.type === 'node')) {
      this.headTotals = pageTotals(cached)
      return
    }
    void asDirPage(this.objects, head).then(
      (page) => {
        if (this.rootOf(HEAD) === head) this.headTotals = pageTotals(page)
      },
      () => undefined,
    )
  }

  private assertOpen(): void {
    if (this.closed) throw new EngineError('CLOSED', 'the database is closed')
  }
}

async function asDirPage(objects: ObjectStore, hash: Uint8Array) {
  const page = await objects.get(hash)
  if (page.type !== 'leaf' && page.type !== 'node')
    throw new EngineError('CONTENT_CORRUPT', 'the root of a version is not a directory')
  return page
}
