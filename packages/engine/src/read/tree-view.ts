import type { QueryOptions, QueryResult } from './query-types'
import type { Entry } from './entry'
import { EngineError, isEngineError } from '../errors'
import { toHex } from '../internal/hex'
import { pageTotals } from '../objects/tree-objects'
import type { DirEntry, FileObject, TreeObject } from '../objects/tree-objects'
import { createEventLoopYield } from '../internal/event-loop-yield'
import { compileGlob } from '../path/compile-glob'
import { normalizePath } from '../path/db-path'
import { iterateEntries, loadPage } from '../tree/prolly/prolly-read'
import { contentParts, contentStream, readContent } from './file-reader'
import { resolvePath } from './resolve-path'
import { walkFiles } from './walk-files'
import type { ReadStreamOptions, ViewContext } from './view-context'

/** Options of `list`. */
export interface ListOptions {
  /** 0 (default): the directory's children; -1: every file below it, recursively. */
  depth?: 0 | -1
  /**
   * Keeps entries whose path relative to the listed directory matches this glob: at most
   * `MAX_GLOB_LENGTH` characters and `MAX_GLOB_ALTERNATIVES` brace alternatives, else
   * `INVALID_INPUT`.
   */
  glob?: string
  /** Stops after this many entries. */
  limit?: number
  /** Starts strictly after this name (depth 0) or relative path (depth -1). */
  after?: string
}

/** Options of `stat`. */
export interface StatOptions {
  /** Follow a symlink at the end of the path (default true); `false` describes the link. */
  follow?: boolean
}

/**
 * An entry found by one walk of the tree ({@link TreeView.open}): its description and, for a
 * file, its content, read from the same file object the description came from.
 */
export interface OpenedEntry {
  readonly entry: Entry
  /**
   * The file's content, or the inclusive range `start..end` of it, as one buffer;
   * `IS_A_DIRECTORY` for anything but a file.
   */
  read(range?: ReadStreamOptions): Promise<Uint8Array>
  /** The file's content (or a range) as a stream, read as the consumer pulls. */
  stream(range?: ReadStreamOptions): ReadableStream<Uint8Array>
  /**
   * The file's content (or a range) as parts, each read as the consumer asks for it: what
   * {@link stream} gives, without a web stream's costs per part (a server writing the parts
   * to a socket itself). Parts are lent: a part's memory may be reused once the next part is
   * asked for, so copy what you keep (a socket write must have called back). Call `return()`
   * on it when stopping early.
   */
  parts(range?: ReadStreamOptions): AsyncGenerator<Uint8Array>
}

/**
 * A read-only view of one version: every read call of the database, against a fixed root.
 * Views are cheap; the database makes one per call for HEAD.
 */
export class TreeView {
  #version: string | undefined

  constructor(
    protected readonly context: ViewContext,
    protected readonly root: Uint8Array,
  ) {}

  /** Hex hash of the version this view reads (made when first asked: most reads never ask). */
  get version(): string {
    this.#version ??= toHex(this.root)
    return this.#version
  }

  /**
   * Queries the documents of a directory in this version (DESIGN §3.8): conditions on JSON
   * fields and virtual fields, an order, pages of at most `limit` with a `next` cursor. An
   * index drives it when one fits; otherwise it reads every document (`plan: 'scan'`).
   *
   * @example
   * const page = await db.query({ path: '/orders', where: { field: '/status', op: 'eq', value: 'open' } })
   */
  query(options: QueryOptions): Promise<QueryResult> {
    this.context.assertOpen()
    return this.context.query(this.root, options)
  }

  /** Describes the entry at `path`, following symlinks unless `follow: false`. */
  async stat(path: string, options: StatOptions = {}): Promise<Entry> {
    const resolved = await this.resolve(normalizePath(path), options.follow ?? true)
    if (resolved.entry === undefined) return this.rootEntry()
    return this.toEntry(resolved.path, resolved.entry)
  }

  /**
   * Finds the entry at `path` (following symlinks unless `follow: false`) with one walk of the
   * tree, for a caller that describes it and then reads it: the description and the bytes come
   * from the same file object, and nothing is looked up twice.
   *
   * @example
   * const { entry, read } = await db.view().open('/docs/a.txt')
   * const bytes = await read()
   */
  async open(path: string, options: StatOptions = {}): Promise<OpenedEntry> {
    const resolved = await this.resolve(normalizePath(path), options.follow ?? true)
    if (resolved.entry === undefined) {
      const entry = await this.rootEntry()
      return this.opened(entry, undefined)
    }
    const object = await this.context.objects.get(resolved.entry.hash)
    const entry = entryOf(resolved.path, resolved.entry, object)
    return this.opened(entry, object.type === 'file' ? object : undefined)
  }

  /** The whole content of a file. */
  async readFile(path: string): Promise<Uint8Array> {
    return readContent(this.context, await this.fileAt(path), path, {})
  }

  /**
   * A stream of a file's content, or of the inclusive byte range `start..end`. Chunks are read
   * as the consumer pulls, so memory stays bounded whatever the file size.
   */
  createReadStream(path: string, options: ReadStreamOptions = {}): ReadableStream<Uint8Array> {
    return contentStream(this.context, () => this.fileAt(path), path, options)
  }

  /** Lists a directory (following symlinks to it) in name order, streaming page by page. */
  async *list(dir: string, options: ListOptions = {}): AsyncGenerator<Entry> {
    // Checked before any read: a glob over the limits is refused whatever the directory holds.
    const matches =
      options.glob === undefined ? () => true : compileGlob(options.glob, 'the listing glob')
    const resolved = await this.resolve(normalizePath(dir), true)
    if (resolved.entry !== undefined && resolved.entry.kind !== 'directory') {
      throw new EngineError(
        'NOT_A_DIRECTORY',
        `${resolved.path} is a ${resolved.entry.kind}, not a directory`,
        { path: dir },
      )
    }
    const base = resolved.path
    const hash = resolved.entry?.hash ?? this.root
    const limit = options.limit ?? Number.POSITIVE_INFINITY
    let count = 0
    if (limit <= 0) return
    const walk =
      options.depth === -1
        ? walkFiles(this.context.objects, hash, options.after)
        : this.children(hash, options.after)
    const pause = createEventLoopYield()
    for await (const [rel, entry] of walk) {
      await pause()
      if (!matches(rel)) continue
      yield await this.toEntry(base === '/' ? `/${rel}` : `${base}/${rel}`, entry)
      if (++count >= limit) return
    }
  }

  /**
   * How many entries `list(dir)` yields without a glob, limit or cursor: its children
   * (depth 0) or every file below it (depth -1). Read from the tree's totals: one page
   * load, whatever the directory's size.
   */
  async count(dir: string, options: { depth?: 0 | -1 } = {}): Promise<number> {
    const resolved = await this.resolve(normalizePath(dir), true)
    if (resolved.entry !== undefined && resolved.entry.kind !== 'directory') {
      throw new EngineError(
        'NOT_A_DIRECTORY',
        `${resolved.path} is a ${resolved.entry.kind}, not a directory`,
        { path: dir },
      )
    }
    const page = await loadPage(this.context.objects, resolved.entry?.hash ?? this.root)
    const totals = pageTotals(page)
    return options.depth === -1 ? totals.files : totals.entries
  }

  /** The target of the symlink at `path`, as written. */
  async readlink(path: string): Promise<string> {
    const resolved = await this.resolve(normalizePath(path), false)
    if (resolved.entry?.kind !== 'symlink') {
      throw new EngineError('CONFLICT', `${resolved.path} is not a symlink`, { path })
    }
    const link = await this.context.objects.get(resolved.entry.hash)
    if (link.type !== 'link')
      throw new EngineError('CONTENT_CORRUPT', `symlink ${path} is damaged`, { path })
    return link.target
  }

  private opened(entry: Entry, file: FileObject | undefined): OpenedEntry {
    const fileOf = (): FileObject => {
      if (file === undefined) {
        throw new EngineError('IS_A_DIRECTORY', `${entry.path} is a directory, not a file`, {
          path: entry.path,
        })
      }
      return file
    }
    return {
      entry,
      read: async (range = {}) => readContent(this.context, fileOf(), entry.path, range),
      stream: (range = {}) => contentStream(this.context, async () => fileOf(), entry.path, range),
      parts: (range = {}) =>
        contentParts(
          this.context,
          async () => fileOf(),
          entry.path,
          range,
          this.context.readBuffers,
        ),
    }
  }

  protected async resolve(path: string, follow: boolean) {
    this.context.assertOpen()
    try {
      return await resolvePath(this.context.objects, this.root, path, follow)
    } catch (err) {
      if (isEngineError(err, 'NOT_FOUND') && err.path === undefined) {
        throw new EngineError('NOT_FOUND', `version ${this.version} is not stored`, { cause: err })
      }
      throw err
    }
  }

  private async fileAt(path: string): Promise<FileObject> {
    const resolved = await this.resolve(normalizePath(path), true)
    if (resolved.entry?.kind !== 'file') {
      throw new EngineError('IS_A_DIRECTORY', `${resolved.path} is a directory, not a file`, {
        path,
      })
    }
    const file = await this.context.objects.get(resolved.entry.hash)
    if (file.type !== 'file')
      throw new EngineError('CONTENT_CORRUPT', `file ${path} is damaged`, { path })
    return file
  }

  private async *children(
    hash: Uint8Array,
    after: string | undefined,
  ): AsyncGenerator<[string, DirEntry]> {
    for await (const entry of iterateEntries(
      this.context.objects,
      await loadPage(this.context.objects, hash),
      after,
    )) {
      yield [entry.name, entry]
    }
  }

  private async rootEntry(): Promise<Entry> {
    const { bytes } = pageTotals(await loadPage(this.context.objects, this.root))
    return {
      path: '/',
      name: '',
      entryType: 'directory',
      size: bytes,
      hash: this.version,
      contentType: null,
      createdAt: 0,
      updatedAt: 0,
    }
  }

  private async toEntry(path: string, entry: DirEntry): Promise<Entry> {
    return entryOf(path, entry, await this.context.objects.get(entry.hash))
  }
}

/** The hex content hash of each file object met, kept as long as the (immutable) object lives. */
const contentHashes = new WeakMap<FileObject, string>()

/** An entry described from its directory record and its object. */
function entryOf(path: string, entry: DirEntry, object: TreeObject): Entry {
  const out: Entry = {
    path,
    name: entry.name,
    entryType: entry.kind,
    size: entry.size,
    hash: '',
    contentType: null,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  }
  if (object.type === 'file') {
    let hash = contentHashes.get(object)
    if (hash === undefined) {
      hash = toHex(object.contentHash)
      contentHashes.set(object, hash)
    }
    out.hash = hash
    out.contentType = object.contentType
    if (object.metadata !== '')
      out.metadata = JSON.parse(object.metadata) as Record<string, unknown>
    return out
  }
  out.hash = toHex(entry.hash)
  if (object.type === 'link') out.target = object.target
  return out
}
