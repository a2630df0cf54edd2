import { archiveChunkIds, writeArchive, type ExportOptions } from './archive/export-archive'
import { importArchive, type ImportOptions, type ImportResult } from './archive/import-archive'
import { oneChunk, refreshedArchive } from './archive/refreshed-archive'
import type { ChangeIterationOptions, ChangeListener } from './changes/change-feed'
import type { SequencedChange } from './changes/database-change'
import type { EngineCore } from './engine-core'
import { collectGarbage, type GcOptions, type GcResult } from './gc/collect-garbage'
import { collectGarbageUnderLease, type LeasedGcSettings } from './gc/leased-gc'
import { diffEntries, type EntryDifference } from './changes/entry-diff'
import { buildIndexes, type ReindexOptions, type ReindexResult } from './indexes/build-indexes'
import { parseHash } from './internal/hex'
import type { TreeView } from './read/tree-view'
import type { EngineStats } from './stats/engine-stats'
import { createSystemStore, type SystemStore } from './system-store'
import type { Storage } from './storage/open-storage'
import { withStoredVersion } from './versions/existing-version'
import { verifyDatabase, type VerifyOptions, type VerifyResult } from './verify/verify-database'
import { Forks } from './versions/forks'
import { history, type HistoryEntry } from './versions/history'
import { checkHeadMoveOptions, headLogMark, headLogPage } from './versions/head-log'
import type { HeadLogOptions, HeadLogPage, HeadMoveOptions } from './versions/head-log'
import { assertRefName, HEAD, refKey } from './meta/keys'
import { moveRefMutation } from './versions/ref-mutations'
import { restoreFileMutation } from './versions/restore-file'
import { Snapshots } from './versions/snapshots'
import { PeerPins } from './versions/peer-pins'
import { namesHash, resolveVersion, resolveVersionRoot } from './versions/version-spec'
import { RootCheckedView } from './versions/root-checked-view'
import { assertVersionRoot } from './versions/version-roots'
import { missingChunks, putChunk, readChunk } from './write/chunk-uploads'
import type { ChangeResult } from './read/entry'
import { Workspace } from './workspace'
import { changeLogId, replayChanges, type ReplayChangesOptions } from './replay-changes'
import { checkStorageOptions, leasedGcSettings, openCore, openStorageFor } from './database-open'
import type { DatabaseOptions } from './database-open'

export type { DatabaseOptions } from './database-open'

/**
 * A versioned, content-addressed file database (DESIGN §3). Every write produces a new
 * version; `head()` is the current one, `at()` reads any stored one, `snapshots` name them,
 * `fork(name)` writes beside HEAD, and archives move versions between databases.
 *
 * @example
 * const db = await Database.open({ path: './data' })
 * await db.writeFile('/notes/today.md', '# hello', { contentType: 'text/markdown' })
 * await db.snapshots.create('before-edit')
 * console.log(new TextDecoder().decode(await db.readFile('/notes/today.md')))
 * await db.close()
 */
export class Database extends Workspace {
  /** Named, immutable versions. */
  readonly snapshots: Snapshots
  /** Writable lines of versions beside HEAD. */
  readonly forks: Forks
  /** The version last synced from each replication peer, kept from GC. */
  readonly peerPins: PeerPins

  private constructor(
    core: EngineCore,
    private readonly leasedGc?: LeasedGcSettings,
  ) {
    super(core, HEAD)
    this.snapshots = new Snapshots(core)
    this.forks = new Forks(core)
    this.peerPins = new PeerPins(core)
  }

  /**
   * Opens (creating when absent) a database on disk (`path`), in an abstract-level database
   * (`level`) or on stores the caller opened (`meta`, optionally `chunks`).
   */
  static async open(options: DatabaseOptions): Promise<Database> {
    checkStorageOptions(options)
    return openDatabaseOnStorage(await openStorageFor(options), options)
  }

  /**
   * The file API on fork `name` (see {@link Forks.create}); calls fail with `NOT_FOUND` while
   * the fork does not exist.
   */
  fork(name: string): Workspace {
    assertRefName('fork', name)
    return Workspace.forRef(this.core, refKey('fork', name))
  }

  /**
   * A read-only view of a stored version: a hex hash, `{ snapshot }` or `{ version }`. A hash
   * must be a version's root (HEAD, a snapshot, a fork, an import or one the version log
   * records); any other, a directory's hash included, reads as `NOT_FOUND`
   * (`INVALID_HASH` for a malformed hash, `NOT_FOUND` for an unknown snapshot; reads of an
   * unknown hash fail with `NOT_FOUND`).
   */
  at(version: string | { snapshot: string } | { version: string }): TreeView {
    this.core.assertOpen()
    const spec = typeof version === 'string' ? { version } : version
    const root = resolveVersion(this.core, spec)
    return namesHash(spec) ? new RootCheckedView(this.core, root) : this.core.viewOf(root)
  }

  /**
   * Makes any stored version HEAD (`INVALID_HASH` if `version` is not 64 hex digits,
   * `NOT_FOUND` if it is not stored). Returns the new HEAD and the version it replaced; the
   * HEAD log records the move, so `promote(previous)` undoes it. With `expectHead`, refuses
   * with `CONFLICT` (changing nothing) unless HEAD is that version when the move commits.
   *
   * @example
   * const moved = await db.promote(hash, { expectHead: db.head(), by: 'alice' })
   * await db.promote(moved.previous) // undo
   */
  async promote(
    version: string,
    options: HeadMoveOptions = {},
  ): Promise<{ version: string; previous: string }> {
    const root = parseHash(version)
    const expectHead = checkHeadMoveOptions(options)
    await this.core.refreshShared()
    await assertVersionRoot(this.core, root)
    return withStoredVersion(this.core, root, () =>
      this.core.writes.submit(
        moveRefMutation(HEAD, { root }, 'promote', [refKey('import', version.toLowerCase())], {
          expectHead,
          headLog: headLogMark('promote', options.by),
        }),
      ),
    )
  }

  /**
   * The HEAD log, newest first: every HEAD move that replaced history (promote, fork
   * promote, import with promote, snapshot restore) with the version it replaced. Versions it
   * names are kept from GC for `headLogRetentionMs`. `INVALID_INPUT` for a `limit` outside
   * 1–1000 or a cursor that is not one this returned.
   *
   * @example
   * const { items } = await db.headLog({ limit: 10 })
   * if (items[0] !== undefined) await db.promote(items[0].previous) // undo the latest move
   */
  async headLog(options: HeadLogOptions = {}): Promise<HeadLogPage> {
    return headLogPage(this.core, options)
  }

  /**
   * How the entry at `path` changed across the version log and the snapshots, newest first:
   * one item per version where it was added, modified or deleted, and one per snapshot
   * (`unchanged` when the snapshot holds what the previous item described).
   */
  async history(path: string): Promise<HistoryEntry[]> {
    this.core.assertOpen()
    await this.core.refreshShared()
    return history(this.core, path)
  }

  /** Puts the entry `path` had in a snapshot or version back into HEAD (file, symlink or whole directory). */
  async restoreFile(
    path: string,
    from: { snapshot: string } | { version: string },
  ): Promise<ChangeResult> {
    this.core.assertOpen()
    const root = await resolveVersionRoot(this.core, from)
    return withStoredVersion(this.core, root, () =>
      this.core.writes.submit(restoreFileMutation(HEAD, path, root)),
    )
  }

  /**
   * Streams a `.svcdb` archive of a version (HEAD by default): every object and chunk
   * reachable from it (format: `docs/archive-format.md`). Importing it into an empty
   * database reproduces the version hash exactly.
   */
  exportArchive(
    options: { snapshot?: string; version?: string } & ExportOptions = {},
  ): AsyncGenerator<Uint8Array> {
    const { version, snapshot } = options
    const named = snapshot === undefined ? undefined : { snapshot }
    const spec = version === undefined ? named : { version }
    return refreshedArchive(this.core.shared, () => writeArchive(this.core, spec, null, options))
  }

  /**
   * Builds HEAD's query indexes of the directory at `path` from its
   * `.svcdb/indexes.json` (DESIGN §3.8); writes keep them current afterwards. Reports
   * progress, stops at `signal` (recording nothing), and does nothing when they are built.
   */
  async reindex(path: string, options: ReindexOptions = {}): Promise<ReindexResult> {
    await this.core.refreshShared()
    return buildIndexes(this.core, path, options)
  }

  /**
   * The entries that differ between two versions (each a snapshot name or a hex hash; `to`
   * defaults to HEAD), in path order: entries added or changed are `created`, removed ones
   * `deleted`, each reported at the highest path where it shows. Unchanged subtrees are
   * skipped by hash, so the cost follows the change.
   *
   * @example
   * for await (const d of db.diffEntries({ from: 'v1' })) console.log(d.change, d.path)
   */
  async *diffEntries(options: {
    from: string
    to?: string
    signal?: AbortSignal
  }): AsyncGenerator<EntryDifference> {
    this.core.assertOpen()
    const from = await resolveVersionRoot(this.core, options.from)
    const to = await resolveVersionRoot(this.core, options.to)
    yield* diffEntries(this.core.objects, from, to, options)
  }

  /**
   * Streams a patch from `from` to `to` (HEAD by default), each a snapshot name or a hex
   * version hash: what `to` holds and `from` lacks. It costs in proportion to the change.
   */
  diffArchive(options: { from: string; to?: string } & ExportOptions): AsyncGenerator<Uint8Array> {
    return refreshedArchive(this.core.shared, () =>
      writeArchive(this.core, options.to, options.from, options),
    )
  }

  /**
   * The raw ids of the chunks `diffArchive({ from, to })` (without `from`, the export of `to`)
   * would carry, read from the trees alone: a receiver names those it holds in `skipChunks`.
   */
  archiveChunkIds(
    options: { from?: string; to?: string; signal?: AbortSignal } = {},
  ): AsyncGenerator<Uint8Array> {
    return refreshedArchive(this.core.shared, () =>
      archiveChunkIds(this.core, options.to, options.from ?? null, options),
    )
  }

  /**
   * Imports an export or a patch, checking everything before publishing anything (see
   * {@link ImportOptions}); a patch whose base is not HEAD is `BASE_MISMATCH` unless `force`.
   */
  async importArchive(
    source: AsyncIterable<Uint8Array> | Uint8Array,
    options: ImportOptions = {},
  ): Promise<ImportResult> {
    const input = source instanceof Uint8Array ? oneChunk(source) : source
    await this.core.refreshShared()
    return importArchive(this.core, input, options)
  }

  /**
   * Collects garbage online (DESIGN §3.6): objects and chunks no ref, version-log entry,
   * HEAD-log entry within its retention window or running operation reaches are removed
   * while writes go on, then pack files with much dead space are compacted. One collection
   * runs at a time (`CONFLICT` otherwise).
   *
   * In a shared database it runs under the cluster's `gc` lock (open with `leases`; refused
   * with `CONFLICT` without them, or while another node holds the lock), spares chunks any
   * node stored or reused within `gcGraceMs`, removes nothing another node's commit made
   * reachable meanwhile, and compacts nothing.
   */
  async gc(options?: GcOptions): Promise<GcResult> {
    const { shared } = this.core
    if (shared === undefined) return collectGarbage(this.core, options)
    return collectGarbageUnderLease(this.core, shared, this.leasedGc, options)
  }

  /**
   * Re-reads and re-hashes every object and chunk of every version (refs and the version
   * log) and every stored chunk, reporting what is missing or damaged with the paths that
   * reach it. Runs online; repairs nothing.
   */
  async verify(options?: VerifyOptions): Promise<VerifyResult> {
    await this.core.refreshShared()
    return verifyDatabase(this.core, options)
  }

  /**
   * A string key-value store for records of other components kept in this database (the
   * server keeps identity, tasks and schedules there), isolated per `namespace`.
   */
  systemStore(namespace: string): SystemStore {
    this.core.assertOpen()
    return createSystemStore(this.core.meta, namespace, () => this.core.assertOpen())
  }

  /**
   * Stores one chunk a client cut with this engine's chunker (`@svcdb/engine/chunking`),
   * durably, after checking its bytes hash to `hash` (`INVALID_INPUT` otherwise). With
   * {@link missingChunks} and `writeChunks`, an upload sends only the chunks not stored.
   */
  async putChunk(hash: string, bytes: Uint8Array): Promise<{ isNew: boolean }> {
    return putChunk(this.core, hash, bytes)
  }

  /**
   * The bytes of a stored chunk (`NOT_FOUND` when absent, `INVALID_HASH` for a malformed id),
   * checked as every read is. The server looks at an upload's first bytes with it.
   */
  async readChunk(hash: string): Promise<Uint8Array> {
    return readChunk(this.core, hash)
  }

  /**
   * The chunk ids among `hashes` that are not stored (`INVALID_HASH` for a malformed one).
   * Those found are kept from GC for a while for the upload naming them, unless `hold: false`.
   */
  async missingChunks(hashes: readonly string[], options?: { hold?: boolean }): Promise<string[]> {
    this.core.assertOpen()
    return missingChunks(this.core, hashes, options)
  }

  /**
   * Calls `listener` with every change once it is durable; returns the unsubscribe function.
   * In a shared database, every node's changes, in commit order, each once: other nodes'
   * as this node notices them (see `sharedPollMs`).
   */
  onChange(listener: ChangeListener): () => void {
    return this.core.feed.on(listener)
  }

  /** Durable changes from now on; ends when the database closes or `signal` aborts. */
  changes(options?: ChangeIterationOptions): AsyncGenerator<SequencedChange> {
    this.core.assertOpen()
    return this.core.feed.iterate(options)
  }

  /**
   * The changes after version-log position `after` (a change's `seq`), oldest first, any
   * node's, read from the version log; `NOT_FOUND` once that position is trimmed from the log
   * (`headLogRetentionMs`) or not reached yet.
   */
  replayChanges(options: ReplayChangesOptions): AsyncGenerator<SequencedChange> {
    this.core.assertOpen()
    return replayChanges(this.core, options)
  }

  /** An id of the database, the same on every node sharing it (part of change event ids). */
  get changeLogId(): string {
    return changeLogId(this.core)
  }

  /**
   * In a shared database, makes what this node reads at least as new as the store was when
   * called: one read of the commit token, and a reload of refs, their info, counters and
   * HEAD's totals when another node committed since. Reads of HEAD and named refs (files,
   * listings, history, snapshots, forks) call it themselves; call it before the synchronous
   * `head()`, `view()`, `at()` and `stats()` to see other nodes' commits. Concurrent calls
   * share one reload. Does nothing in a database that is not shared.
   *
   * @example
   * await db.refresh()
   * console.log(db.head(), db.stats().files)
   */
  async refresh(): Promise<void> {
    this.core.assertOpen()
    await this.core.refreshShared()
  }

  /**
   * The counters of DESIGN §3.7, in constant time. In a shared database, as of the last
   * refresh (see {@link Database.refresh}).
   */
  stats(): EngineStats {
    const { core } = this
    return core.meters.snapshot({
      hashAlgorithm: core.format.hashAlgorithm,
      chunkSize: core.format.chunker.avg,
      counters: core.state.counters.value,
      head: core.headTotals.value,
      pendingWrites: core.writes.pending,
      ...core.state.namedRefs,
      gcLastReclaimedBytes: core.gc.lastReclaimedBytes,
    })
  }

  /** Waits for pending writes, then releases the storage. Later calls fail with `CLOSED`. */
  async close(): Promise<void> {
    await this.core.close()
  }
}

/**
 * Opens a database on storage the caller assembled, closing the storage if that fails. Not
 * exported from the package (`Database.open` is the API): the crash and fault tests use it to
 * put the pack store on a simulated file system.
 */
export async function openDatabaseOnStorage(
  storage: Storage,
  options: Omit<DatabaseOptions, 'path' | 'level' | 'meta' | 'chunks'> = {},
): Promise<Database> {
  // The constructor is private to keep it out of the public API, not from this module.
  const construct = Database as unknown as new (
    core: EngineCore,
    leasedGc?: LeasedGcSettings,
  ) => Database
  try {
    const gc = leasedGcSettings(options, storage.chunks)
    return new construct(await openCore(storage, options), gc)
  } catch (err) {
    await storage.chunks.close().catch(() => undefined)
    await storage.meta.close().catch(() => undefined)
    throw err
  }
}
