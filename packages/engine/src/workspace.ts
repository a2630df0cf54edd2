import { checkedConfigData, isIndexConfigPath } from './write/checked-config-data'
import type { QueryOptions, QueryResult } from './read/query-types'
import type { Mutation } from './commit/mutation'
import type { EngineCore } from './engine-core'
import type { ChangeResult, Entry } from './read/entry'
import { parseHash, toHex } from './internal/hex'
import { normalizePath } from './path/db-path'
import type { TreeView } from './read/tree-view'
import type { ListOptions, StatOptions } from './read/tree-view'
import type { ReadStreamOptions } from './read/view-context'
import { forkOf } from './meta/keys'
import { writeFiles } from './write/bulk-write'
import type {
  BulkChunksFile,
  BulkFile,
  WriteFilesOptions,
  WriteFilesResult,
} from './write/bulk-write'
import { contentFromChunks } from './write/chunk-uploads'
import { ingest } from './write/ingest'
import {
  checkedFileFields,
  deleteMutation,
  mkdirMutation,
  relocateMutation,
  symlinkMutation,
  writeFileMutation,
} from './write/mutations'
import type { FileFields, WriteFileOptions, WriteOutcome } from './write/mutations'
import type { WriteData } from './write/write-data'
import { refreshedStream } from './state/refreshed-stream'

/** What a file write returns: the entry written, the version produced, and whether it is new. */
export type WriteResult = Entry & { version: string; created: boolean }

/** What a write answers: the entry the commit wrote (one shape for every write entry point). */
function writeResult(outcome: WriteOutcome, options: WriteFileOptions): WriteResult {
  const { entry, file } = outcome
  const result: WriteResult = {
    path: outcome.path,
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

/**
 * The file API on one line of versions: HEAD (the {@link Database} itself) or a fork
 * (`db.fork(name)`). Reads see the latest version of that line; every write produces a new
 * one, durable when the call resolves. Writes to a fork never touch HEAD.
 */
export class Workspace {
  /** @internal */
  protected constructor(
    protected readonly core: EngineCore,
    /** The ref this workspace reads and writes. */
    protected readonly ref: string,
  ) {}

  /** @internal A workspace on `ref` (the database builds these). */
  static forRef(core: EngineCore, ref: string): Workspace {
    return new Workspace(core, ref)
  }

  /** The fork this workspace writes to, or `undefined` for HEAD. */
  get forkName(): string | undefined {
    return forkOf(this.ref)
  }

  /**
   * Hex hash of the latest version of this workspace. In a shared database, as of the last
   * refresh: `await db.refresh()` first to see other nodes' commits.
   */
  head(): string {
    return toHex(this.core.state.rootOf(this.ref))
  }

  /**
   * A read-only view of this workspace's latest version, pinned: later writes do not change
   * what it reads, so a stat and the read that follows it see the same file. In a shared
   * database, the latest as of the last refresh (`await db.refresh()` first).
   */
  view(): TreeView {
    this.core.assertOpen()
    return this.current()
  }

  async stat(path: string, options?: StatOptions): Promise<Entry> {
    await this.core.refreshShared()
    return this.current().stat(path, options)
  }

  /** Queries a directory's documents in this workspace's latest version (see {@link TreeView.query}). */
  async query(options: QueryOptions): Promise<QueryResult> {
    await this.core.refreshShared()
    return this.current().query(options)
  }

  async readFile(path: string): Promise<Uint8Array> {
    await this.core.refreshShared()
    return this.current().readFile(path)
  }

  createReadStream(path: string, options?: ReadStreamOptions): ReadableStream<Uint8Array> {
    const { shared } = this.core
    if (shared === undefined) return this.current().createReadStream(path, options)
    this.core.assertOpen()
    // The version is picked once the token has been checked, when the stream is first read.
    return refreshedStream(shared.refresh(), () => this.current().createReadStream(path, options))
  }

  async *list(dir: string, options?: ListOptions): AsyncGenerator<Entry> {
    await this.core.refreshShared()
    yield* this.current().list(dir, options)
  }

  /** How many entries `list(dir)` yields without a glob (see {@link TreeView.count}). */
  async count(dir: string, options?: { depth?: 0 | -1 }): Promise<number> {
    await this.core.refreshShared()
    return this.current().count(dir, options)
  }

  async readlink(path: string): Promise<string> {
    await this.core.refreshShared()
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
    this.core.assertOpen()
    const target = normalizePath(path)
    // Checked before any byte is ingested.
    const fields = checkedFileFields(target, options)
    return this.#writeData(target, data, fields, options)
  }

  /**
   * Writes a file from chunks already stored (`Database.putChunk`), in order: the upload
   * protocol that sends only missing chunks. Every chunk must be stored (`INVALID_INPUT`
   * lists the missing ones) and `contentHash`, when given, must be theirs.
   */
  async writeChunks(
    path: string,
    chunks: readonly { hash: string; size: number }[],
    options: WriteFileOptions & { contentHash?: string } = {},
  ): Promise<WriteResult> {
    const { core } = this
    core.assertOpen()
    const target = normalizePath(path)
    const fields = checkedFileFields(target, options)
    // Configurations are small: check one by writing it through the checked path.
    if (isIndexConfigPath(target)) {
      const bytes = async function* () {
        for (const ref of chunks) yield await core.chunks.read(parseHash(ref.hash))
      }
      return this.#writeData(target, bytes(), fields, options)
    }
    const lease = core.fence.lease()
    try {
      const content = await contentFromChunks(core, chunks, lease, options.contentHash)
      const outcome = await core.writes.submit(
        writeFileMutation(this.ref, target, content, fields, options),
      )
      return writeResult(outcome, options)
    } finally {
      lease.release()
    }
  }

  /** Ingests `data` and commits it at `target` (normalised, its fields checked). */
  async #writeData(
    target: string,
    data: WriteData,
    fields: FileFields,
    options: WriteFileOptions,
  ): Promise<WriteResult> {
    const { core } = this
    const started = performance.now()
    if (isIndexConfigPath(target)) data = await checkedConfigData(data)
    await core.writes.enter()
    const lease = core.fence.lease()
    try {
      const content = await ingest(data, core.chunks, core.objects.hasher, {
        signal: options.signal,
        lease,
      })
      core.meters.chunksIngested(content.chunks.length, content.newChunks)
      let outcome
      try {
        outcome = await core.writes.submit(
          writeFileMutation(this.ref, target, content, fields, options),
        )
      } catch (err) {
        core.state.counters.addVoidBytes(content.newStoredBytes)
        throw err
      }
      core.meters.write(content.size, performance.now() - started)
      return writeResult(outcome, options)
    } finally {
      core.writes.exit()
      lease.release()
    }
  }

  /**
   * Writes many files as one version: a load of thousands of small files then leaves one
   * set of directory pages (each touched directory rewritten once) instead of one per file,
   * and costs one commit instead of thousands. Contents are read and stored `concurrency` at
   * a time (default 8), given as data or as chunks already stored (as {@link writeChunks}).
   *
   * Memory stays bounded whatever the number of files: files are committed in batches, each
   * one version, once a batch holds `maxBatchBytes` in memory (default 64 MiB: small chunks
   * wait for the commit there) or `maxBatchFiles` files (default 50,000) or 50,000 new
   * chunks. Each batch is atomic: a file that cannot be written (a bad path or metadata, a
   * directory at its path, a file where a parent directory is needed, content that cannot be
   * read) fails the call with an `EngineError` naming its path, and nothing of its batch is
   * written; batches committed before it stay, as does anything committed before a crash.
   * A path given twice ends with its last content.
   *
   * Resolves once the last batch is durable, with totals; `onWritten` reports each file once
   * its batch is. Every batch emits one `entries_created` change naming its paths.
   *
   * @example
   * const { version, files } = await db.writeFiles([
   *   { path: '/site/index.html', data: '<h1>hi</h1>', contentType: 'text/html' },
   *   { path: '/site/app.js', data: bytes },
   * ])
   */
  async writeFiles(
    files: Iterable<BulkFile | BulkChunksFile> | AsyncIterable<BulkFile | BulkChunksFile>,
    options?: WriteFilesOptions,
  ): Promise<WriteFilesResult> {
    return writeFiles(this.core, this.ref, files, options)
  }

  /** Creates a directory and its parents (an existing directory is fine). */
  async mkdir(path: string): Promise<ChangeResult> {
    const target = normalizePath(path)
    const version = await this.submit(mkdirMutation(this.ref, target))
    return { path: target, entryType: 'directory', version }
  }

  /** Deletes a file, symlink or empty directory; a non-empty directory needs `recursive`. */
  async delete(path: string, options: { recursive?: boolean } = {}): Promise<ChangeResult> {
    const target = normalizePath(path)
    const { entry, version } = await this.submit(
      deleteMutation(this.ref, target, options.recursive ?? false),
    )
    return { path: target, entryType: entry.kind, version }
  }

  /** Moves an entry; the target must not exist. No content is copied. */
  async move(from: string, to: string): Promise<ChangeResult> {
    const target = normalizePath(to)
    const { entry, version } = await this.submit(
      relocateMutation(this.ref, normalizePath(from), target, false),
    )
    return { path: target, entryType: entry.kind, version }
  }

  /** Copies an entry by reference; the target must not exist. */
  async copy(from: string, to: string): Promise<ChangeResult> {
    const target = normalizePath(to)
    const { entry, version } = await this.submit(
      relocateMutation(this.ref, normalizePath(from), target, true),
    )
    return { path: target, entryType: entry.kind, version }
  }

  /** Creates or replaces a symlink at `path` pointing at `target` (absolute, or relative to the link's directory). */
  async symlink(path: string, target: string): Promise<ChangeResult> {
    const at = normalizePath(path)
    const { version } = await this.submit(symlinkMutation(this.ref, at, target))
    return { path: at, entryType: 'symlink', version }
  }

  /** @internal */
  protected current(): TreeView {
    return this.core.viewOf(this.core.state.rootOf(this.ref))
  }

  /** @internal */
  protected submit<T>(mutation: Mutation<T>): Promise<T> {
    return this.core.writes.submit(mutation)
  }
}
