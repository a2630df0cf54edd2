import { routes } from '@svcdb/contract'
import type { BodyOf, CallOptions } from '../http/route-types'
import type { ResponseOf, Transport } from '../http/transport'
import type { UploadSource } from '../uploads/upload-source'
import { importArchive } from './versions-import'

type R = typeof routes

/** Guards a move of HEAD: refused with `CONFLICT` (409) unless HEAD is this hex hash. */
export interface ExpectHeadOptions {
  expectHead?: string
}

/** A page of the HEAD log (`GET /versions/log`), newest first. */
export type HeadLogPage = ResponseOf<R['versionsLog']>
/** One HEAD move that replaced history. */
export type HeadLogItem = HeadLogPage['items'][number]

/** A page of the entries that differ between two versions (`GET /versions/changes`), in path order. */
export type VersionChangesPage = ResponseOf<R['versionsChanges']>
/** One entry that differs, at its path: `added`, `modified` or `deleted` (an entry that changed kind is `deleted`, then `added`). */
export type VersionChange = VersionChangesPage['items'][number]

/** Options of {@link VersionsApi.changes}: `to` is HEAD when absent. */
export type VersionChangesOptions = CallOptions & { to?: string; limit?: number }

/** An archive streaming out of the server. */
export interface ArchiveDownload {
  body: ReadableStream<Uint8Array>
  /** The server's file name, e.g. `export-0123456789ab.svcdb`. */
  filename: string
}

/** Snapshots: named, immutable versions. */
export interface SnapshotsApi {
  create(
    name: string,
    options?: CallOptions & { metadata?: Record<string, unknown> },
  ): Promise<ResponseOf<R['snapshotsCreate']>>
  list(options?: CallOptions): Promise<ResponseOf<R['snapshotsList']>['items']>
  delete(name: string, options?: CallOptions): Promise<ResponseOf<R['snapshotsDelete']>>
  /** Root: HEAD := the snapshot (logged in the HEAD log; `expectHead` guards it). */
  restore(
    name: string,
    options?: CallOptions & ExpectHeadOptions,
  ): Promise<ResponseOf<R['versionsRestore']>>
}

/** Forks: writable lines beside HEAD (write to one with `files.write(..., { fork })`). */
export interface ForksApi {
  /** At HEAD, or at `base` (a snapshot name or a version hash). */
  create(
    name: string,
    options?: CallOptions & { base?: string },
  ): Promise<ResponseOf<R['forksCreate']>>
  list(options?: CallOptions): Promise<ResponseOf<R['forksList']>['items']>
  /**
   * Root: HEAD := the fork's latest version. Pass `expectHead` (the fork's `base`, say) so
   * that commits made on HEAD meanwhile are never set aside silently: 409 `CONFLICT` instead.
   */
  promote(
    name: string,
    options?: CallOptions & ExpectHeadOptions,
  ): Promise<ResponseOf<R['forksPromote']>>
  /** Root: removes the fork. */
  abandon(name: string, options?: CallOptions): Promise<ResponseOf<R['forksAbandon']>>
}

/** Versions: snapshots, forks, history, and archives (root). */
export interface VersionsApi {
  readonly snapshots: SnapshotsApi
  readonly forks: ForksApi
  /** How `path` changed across the version log and the snapshots, newest first. */
  history(path: string, options?: CallOptions): Promise<ResponseOf<R['versionsHistory']>['items']>
  /** Root: puts back what `path` held in a snapshot or version. */
  restoreFile(
    path: string,
    from: BodyOf<R['versionsRestorePath']>,
    options?: CallOptions,
  ): Promise<ResponseOf<R['versionsRestorePath']>>
  /** Root: streams a `.svcdb` export of HEAD, a snapshot or a version hash. */
  export(options?: CallOptions & { snapshot?: string; hash?: string }): Promise<ArchiveDownload>
  /** Root: streams a patch from `from` to `to` (HEAD by default). */
  diff(from: string, options?: CallOptions & { to?: string }): Promise<ArchiveDownload>
  /**
   * Root: imports an export or a patch. Up to 10 MiB it is the request body; a larger one is
   * uploaded to a staging fork and imported from there (`POST /versions/import?from=`).
   */
  import(
    archive: UploadSource,
    options?: CallOptions & { force?: boolean; promote?: boolean },
  ): Promise<ResponseOf<R['versionsImport']>>
  /** Root: HEAD := any stored version (logged in the HEAD log; `expectHead` guards it). */
  promote(
    hash: string,
    options?: CallOptions & ExpectHeadOptions,
  ): Promise<ResponseOf<R['versionsPromote']>>
  /**
   * One page of the HEAD log: the moves that replaced HEAD's history, newest first, each
   * with the `previous` version that `promote` brings back. Needs read on `/`.
   */
  log(options?: CallOptions & { limit?: number; cursor?: string }): Promise<HeadLogPage>
  /** Every HEAD log entry, newest first, fetched page by page as you iterate. */
  logAll(options?: CallOptions & { limit?: number }): AsyncIterable<HeadLogItem>
  /**
   * One page of the entries that differ between `from` and `to` (HEAD by default), each a
   * hex hash, a snapshot name or `HEAD`; only entries the caller may read are listed. A
   * whole added or removed directory shows once, at its own path.
   *
   * @example
   * const { items } = await client.versions.changes(fork.base) // what HEAD did since the fork
   */
  changes(
    from: string,
    options?: VersionChangesOptions & { cursor?: string },
  ): Promise<VersionChangesPage>
  /** Every entry {@link VersionsApi.changes} lists, fetched page by page as you iterate. */
  changesAll(from: string, options?: VersionChangesOptions): AsyncIterable<VersionChange>
}

function archive(response: Response): ArchiveDownload {
  const disposition = response.headers.get('content-disposition') ?? ''
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'archive.svcdb'
  return { body: response.body ?? new ReadableStream({ start: (c) => c.close() }), filename }
}

/** @internal */
export function versionsApi(t: Transport): VersionsApi {
  const log: VersionsApi['log'] = (o = {}) =>
    t.json(routes.versionsLog, {
      query: {
        limit: o.limit === undefined ? undefined : String(o.limit),
        cursor: o.cursor,
      },
      signal: o.signal,
    })
  const changes: VersionsApi['changes'] = (from, o = {}) =>
    t.json(routes.versionsChanges, {
      query: {
        from,
        to: o.to,
        limit: o.limit === undefined ? undefined : String(o.limit),
        cursor: o.cursor,
      },
      signal: o.signal,
    })
  return {
    snapshots: {
      create: (name, o = {}) =>
        t.json(routes.snapshotsCreate, {
          json: o.metadata === undefined ? { name } : { name, metadata: o.metadata },
          signal: o.signal,
        }),
      list: async (o = {}) => (await t.json(routes.snapshotsList, { signal: o.signal })).items,
      delete: (name, o = {}) =>
        t.json(routes.snapshotsDelete, { params: { name }, signal: o.signal }),
      restore: (name, o = {}) =>
        t.json(routes.versionsRestore, {
          json: { name },
          query: { expect_head: o.expectHead },
          signal: o.signal,
        }),
    },
    forks: {
      create: (name, o = {}) =>
        t.json(routes.forksCreate, {
          json: o.base === undefined ? { name } : { name, base: o.base },
          signal: o.signal,
        }),
      list: async (o = {}) => (await t.json(routes.forksList, { signal: o.signal })).items,
      promote: (name, o = {}) =>
        t.json(routes.forksPromote, {
          params: { name },
          query: { expect_head: o.expectHead },
          signal: o.signal,
        }),
      abandon: (name, o = {}) =>
        t.json(routes.forksAbandon, { params: { name }, signal: o.signal }),
    },
    history: async (path, o = {}) =>
      (await t.json(routes.versionsHistory, { params: { path }, signal: o.signal })).items,
    restoreFile: (path, json, o = {}) =>
      t.json(routes.versionsRestorePath, { params: { path }, json, signal: o.signal }),
    export: async (o = {}) =>
      archive(
        await t.send(routes.versionsExport, {
          query: { snapshot: o.snapshot, hash: o.hash },
          signal: o.signal,
        }),
      ),
    diff: async (from, o = {}) =>
      archive(await t.send(routes.versionsDiff, { query: { from, to: o.to }, signal: o.signal })),
    import: (source, o = {}) => importArchive(t, source, o),
    promote: (hash, o = {}) =>
      t.json(routes.versionsPromote, {
        query: { hash, expect_head: o.expectHead },
        signal: o.signal,
      }),
    log,
    async *logAll(o = {}) {
      let cursor: string | undefined
      do {
        const page: HeadLogPage = await log(cursor === undefined ? o : { ...o, cursor })
        yield* page.items
        cursor = page.cursor ?? undefined
      } while (cursor !== undefined)
    },
    changes,
    async *changesAll(from, o = {}) {
      let cursor: string | undefined
      do {
        const page: VersionChangesPage = await changes(
          from,
          cursor === undefined ? o : { ...o, cursor },
        )
        yield* page.items
        cursor = page.cursor ?? undefined
      } while (cursor !== undefined)
    },
  }
}
