import { routes } from '@svcdb/contract'
import type { EntryView, QueryBody } from '@svcdb/contract'
import type { BodyOf, CallOptions } from '../http/route-types'
import type { ResponseOf, Transport } from '../http/transport'
import { uploadMany } from '../uploads/bulk-upload'
import type { UploadManyFile, UploadManyOptions, UploadManyResult } from '../uploads/bulk-upload'
import { dedupUpload } from '../uploads/dedup-upload'
import type { UploadOptions } from '../uploads/dedup-upload'
import { prepareBody } from '../uploads/upload-source'
import type { UploadSource } from '../uploads/upload-source'
import { fileReads, selector } from './file-reads'
import type { FileReads, VersionSelector } from './file-reads'
import { copyArguments, moveArguments } from './move-arguments'
import { sharesApi } from './shares'
import type { SharesApi } from './shares'

type R = typeof routes

/** Options of `files.write`. */
export interface WriteOptions extends CallOptions {
  /** Stored as given; sniffed from the bytes when absent. */
  contentType?: string
  fork?: string
  /** Write only if the file's content hash is this (412 `PRECONDITION_FAILED` otherwise). */
  ifMatch?: string
  /** Write only if nothing exists at the path. */
  ifNoneMatch?: '*'
}

/** Options of listings. */
export interface ListOptions extends CallOptions, VersionSelector {
  /** 0 (default): the directory's children; -1: every file below it. */
  depth?: 0 | -1
  glob?: string
  /** Show symlinks themselves instead of following them. */
  nofollow?: boolean
  /** Entries per request (default 1000, at most 10,000). */
  pageSize?: number
}

/** Files, directories, symlinks and shares (DESIGN §7.1). */
export interface FilesApi {
  /** Writes a file from bytes, text, a Blob or a stream (streams need Node or HTTP/2). */
  write(
    path: string,
    source: UploadSource,
    options?: WriteOptions,
  ): Promise<ResponseOf<R['filesWrite']>>
  /** Uploads a file sending only the chunks the server lacks (works in browsers too). */
  upload(
    path: string,
    source: UploadSource,
    options?: UploadOptions,
  ): Promise<ResponseOf<R['uploadsCommit']>>
  /**
   * Uploads many files, sending only the chunks the server lacks, and commits them as one
   * version per `POST /uploads/commit-many` (up to 10,000 files or 1 MB of JSON each). Files
   * are read one at a time from an iterable or async iterable, so memory stays bounded.
   *
   * @example
   * const { version, files } = await client.files.uploadMany([
   *   { path: '/site/index.html', source: '<h1>hi</h1>', contentType: 'text/html' },
   *   { path: '/site/app.js', source: () => fetch('/app.js').then((r) => r.blob()) },
   * ])
   */
  uploadMany(
    files: Iterable<UploadManyFile> | AsyncIterable<UploadManyFile>,
    options?: UploadManyOptions,
  ): Promise<UploadManyResult>
  /** Downloads a file as a stream; `undefined` when `ifNoneMatch` still matches (304). */
  read: FileReads['read']
  /** The whole file in memory. */
  readBytes: FileReads['readBytes']
  /** The whole file as UTF-8 text. */
  readText: FileReads['readText']
  /**
   * The whole file parsed as JSON; `ClientError` `INVALID_JSON` when its bytes are not JSON.
   * The type parameter is trusted, not checked.
   *
   * @example
   * const config = await client.files.readJson<{ port: number }>('/etc/app.json')
   */
  readJson: FileReads['readJson']
  /**
   * True when something is at `path` (a file, a directory, or a symlink whose target exists),
   * false when the server answers `NOT_FOUND` (a scoped key outside its rules gets that too).
   * Other failures (`FORBIDDEN`, `NETWORK_ERROR`…) still throw.
   */
  exists: FileReads['exists']
  /** What a path holds: its listing entry (files, directories and symlinks alike). */
  stat: FileReads['stat']
  /** Every entry of a directory, fetched page by page as you iterate. */
  list(path: string, options?: ListOptions): AsyncIterable<EntryView>
  /** One page of a listing, for callers that page themselves. */
  listPage(
    path: string,
    options?: ListOptions & { after?: string; offset?: number },
  ): Promise<ListingPage>
  delete(
    path: string,
    options?: CallOptions & { fork?: string; recursive?: boolean },
  ): Promise<ResponseOf<R['filesDelete']>>
  mkdir(
    path: string,
    options?: CallOptions & { fork?: string },
  ): Promise<ResponseOf<R['filesMkdir']>>
  /**
   * Moves or renames an entry; the first argument is the request body, `{ from, to }`.
   * `move(from, to, options)` still works.
   *
   * @example
   * await client.files.move({ from: '/drafts/a.md', to: '/drafts/final.md' })
   */
  move(body: MoveBody, options?: ForkOptions): Promise<ResponseOf<R['filesMove']>>
  move(from: string, to: string, options?: ForkOptions): Promise<ResponseOf<R['filesMove']>>
  /**
   * Copies entries into a directory; only references are copied, never bytes. The first
   * argument is the request body, `{ paths, destination }`; `copy(paths, destination,
   * options)` still works.
   *
   * @example
   * await client.files.copy({ paths: ['/posts/a.md', '/posts/b.md'], destination: '/archive' })
   */
  copy(body: CopyBody, options?: ForkOptions): Promise<ResponseOf<R['filesCopy']>>
  copy(
    paths: string[],
    destination: string,
    options?: ForkOptions,
  ): Promise<ResponseOf<R['filesCopy']>>
  /** Creates or replaces a symlink at `path` pointing to `target`. */
  symlink(
    path: string,
    target: string,
    options?: CallOptions & { fork?: string },
  ): Promise<ResponseOf<R['linksWrite']>>
  /**
   * One page of a directory's documents matching a query (DESIGN §3.8); `next` while more
   * remain. `plan` says whether an index drove it.
   */
  query(query: QueryBody, options?: CallOptions): Promise<ResponseOf<R['filesQuery']>>
  /** Every answer of a query, fetched page by page as you iterate. */
  queryAll(query: Omit<QueryBody, 'after'>, options?: CallOptions): AsyncIterable<EntryView>
  /** Shares and share links (root). */
  readonly shares: SharesApi
}

/** Options of the calls that write to a fork or HEAD. */
export type ForkOptions = CallOptions & { fork?: string }

/** What `files.move` takes: the body of `POST /files/move`. */
export type MoveBody = BodyOf<R['filesMove']>

/** What `files.copy` takes: the body of `POST /files/copy`. */
export type CopyBody = BodyOf<R['filesCopy']>

/** A page of a directory listing. */
export interface ListingPage {
  items: EntryView[]
  total: number
  limit: number
  offset: number
  /** The cursor of the next page, while more remain. */
  next?: string | undefined
}

/** @internal */
export function filesApi(t: Transport): FilesApi {
  const params = (path: string) => ({ path })

  const listPage = async (
    path: string,
    options: ListOptions & { after?: string; offset?: number } = {},
  ): Promise<ListingPage> => {
    const response = await t.send(routes.filesRead, {
      params: params(path.endsWith('/') ? path : `${path}/`),
      query: {
        ...selector(options),
        limit: options.pageSize,
        offset: options.offset,
        after: options.after,
        depth: options.depth,
        glob: options.glob,
        nofollow: options.nofollow,
      },
      signal: options.signal,
    })
    const body = (await t.parse(routes.filesRead, response, options.signal)) as ListingPage
    if (!Array.isArray(body.items)) throw new TypeError(`${path} is not a directory`)
    return body
  }

  return {
    write(path, source, options = {}) {
      const prepared = prepareBody(source)
      const headers: Record<string, string> = {}
      if (options.contentType !== undefined) headers['content-type'] = options.contentType
      if (options.ifMatch !== undefined) headers['if-match'] = `"${options.ifMatch}"`
      if (options.ifNoneMatch !== undefined) headers['if-none-match'] = options.ifNoneMatch
      return t.json(routes.filesWrite, {
        params: params(path),
        query: { fork: options.fork },
        body: prepared.body,
        replayable: prepared.replayable,
        headers,
        signal: options.signal,
      })
    },
    upload: (path, source, options) => dedupUpload(t, path, source, options),
    uploadMany: (files, options) => uploadMany(t, files, options),
    ...fileReads(t),
    async *list(path, options = {}) {
      let after: string | undefined
      for (;;) {
        const page = await listPage(path, after === undefined ? options : { ...options, after })
        yield* page.items
        if (page.next === undefined) return
        after = page.next
      }
    },
    listPage,
    delete: (path, o = {}) =>
      t.json(routes.filesDelete, {
        params: params(path),
        query: { fork: o.fork, recursive: o.recursive },
        signal: o.signal,
      }),
    mkdir: (path, o = {}) =>
      t.json(routes.filesMkdir, { query: { fork: o.fork }, json: { path }, signal: o.signal }),
    move(first: MoveBody | string, second?: string | ForkOptions, third?: ForkOptions) {
      const [json, o] = moveArguments(first, second, third)
      return t.json(routes.filesMove, { query: { fork: o.fork }, json, signal: o.signal })
    },
    copy(first: CopyBody | string[], second?: string | ForkOptions, third?: ForkOptions) {
      const [json, o] = copyArguments(first, second, third)
      return t.json(routes.filesCopy, { query: { fork: o.fork }, json, signal: o.signal })
    },
    symlink: (path, target, o = {}) =>
      t.json(routes.linksWrite, {
        params: params(path),
        query: { fork: o.fork },
        json: { target },
        signal: o.signal,
      }),
    query: (json, o = {}) => t.json(routes.filesQuery, { json, signal: o.signal }),
    async *queryAll(query, o = {}) {
      let after: string | undefined
      for (;;) {
        const page = await t.json(routes.filesQuery, {
          json: after === undefined ? query : { ...query, after },
          signal: o.signal,
        })
        yield* page.items
        if (page.next === undefined) return
        after = page.next
      }
    },
    shares: sharesApi(t),
  }
}
