import { routes } from '@svcdb/contract'
import type { BodyOf, CallOptions } from '../http/route-types'
import type { ResponseOf, Transport } from '../http/transport'
import type { UploadSource } from '../uploads/upload-source'
import { importArchive } from './versions-import'

type R = typeof routes

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
  /** Root: HEAD := the snapshot. */
  restore(name: string, options?: CallOptions): Promise<ResponseOf<R['versionsRestore']>>
}

/** Forks: writable lines beside HEAD (write to one with `files.write(..., { fork })`). */
export interface ForksApi {
  /** At HEAD, or at `base` (a snapshot name or a version hash). */
  create(
    name: string,
    options?: CallOptions & { base?: string },
  ): Promise<ResponseOf<R['forksCreate']>>
  list(options?: CallOptions): Promise<ResponseOf<R['forksList']>['items']>
  /** Root: HEAD := the fork's latest version. */
  promote(name: string, options?: CallOptions): Promise<ResponseOf<R['forksPromote']>>
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
  /** Root: HEAD := any stored version. */
  promote(hash: string, options?: CallOptions): Promise<ResponseOf<R['versionsPromote']>>
}

function archive(response: Response): ArchiveDownload {
  const disposition = response.headers.get('content-disposition') ?? ''
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'archive.svcdb'
  return { body: response.body ?? new ReadableStream({ start: (c) => c.close() }), filename }
}

/** @internal */
export function versionsApi(t: Transport): VersionsApi {
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
        t.json(routes.versionsRestore, { json: { name }, signal: o.signal }),
    },
    forks: {
      create: (name, o = {}) =>
        t.json(routes.forksCreate, {
          json: o.base === undefined ? { name } : { name, base: o.base },
          signal: o.signal,
        }),
      list: async (o = {}) => (await t.json(routes.forksList, { signal: o.signal })).items,
      promote: (name, o = {}) =>
        t.json(routes.forksPromote, { params: { name }, signal: o.signal }),
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
      t.json(routes.versionsPromote, { query: { hash }, signal: o.signal }),
  }
}
