import { EngineError, throwIfAborted } from '../errors'
import { toHex } from '../internal/hex'
import { WriteSet } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { normalizePath } from '../path/db-path'
import { loadPage } from '../tree/prolly/prolly-read'
import { buildDirectory } from '../tree/prolly/prolly-write'
import { HEAD, indexRecordKey } from '../meta/keys'
import { directoryAt } from './directory-at'
import { documentFiles } from './document-files'
import { childPath, documentScope } from './document-scope'
import { findIndexConfig } from './find-config'
import type { FoundConfig } from './find-config'
import { documentKeys, indexEntry, needsJson, readDocument } from './index-documents'
import { readIndexRoots, writeIndexRoots } from './index-store'
import { maintainIndexes } from './index-maintenance'
import type { ChunkStore } from '../chunks/chunk-store'
import type { WritePath } from '../commit/write-path'
import type { MetaStore } from '../meta/meta-store'
import type { ObjectStore } from '../objects/object-store'
import type { DatabaseState } from '../state/database-state'
import type { IndexUsage } from './index-usage'

/** What building query indexes needs. */
export interface IndexBuildServices {
  assertOpen(): void
  readonly chunks: ChunkStore
  readonly gc: { add(...roots: Uint8Array[]): void }
  readonly indexes: IndexUsage
  readonly meta: MetaStore
  readonly objects: ObjectStore
  readonly state: DatabaseState
  readonly writes: WritePath
}

/** Progress of a reindex: documents read of the files under the directory. */
export interface ReindexProgress {
  done: number
  total: number
}

/** Options of `db.reindex`. */
export interface ReindexOptions {
  signal?: AbortSignal
  onProgress?: (progress: ReindexProgress) => void | Promise<void>
}

/** What a reindex did. */
export interface ReindexResult {
  path: string
  /** Documents in the indexes. */
  documents: number
  /** False when HEAD's indexes of the directory were already built. */
  built: boolean
  durationMs: number
}

/** The config of the directory at `path` of `root`, or a clear error. */
export async function requireConfig(
  core: IndexBuildServices,
  root: Uint8Array,
  path: string,
): Promise<{ dirHash: Uint8Array; found: FoundConfig }> {
  const dirHash = await directoryAt(core.objects, root, path)
  if (dirHash === undefined)
    throw new EngineError('NOT_FOUND', `${path} is not a directory`, { path })
  const found = await findIndexConfig(core.objects, core.chunks, dirHash)
  if (found === undefined)
    throw new EngineError('NOT_FOUND', `${path} has no index configuration (.svcdb/indexes.json)`, {
      path,
    })
  if ('error' in found) throw found.error
  return { dirHash, found }
}

/**
 * Builds HEAD's indexes of the directory at `path` from its documents (DESIGN §3.8), then
 * records them in commit order, carried forward over any write made meanwhile. Later writes
 * keep them up to date. Cancellable through `signal`; nothing is recorded when cancelled.
 */
export async function buildIndexes(
  core: IndexBuildServices,
  path: string,
  options: ReindexOptions = {},
): Promise<ReindexResult> {
  core.assertOpen()
  const started = performance.now()
  const dir = normalizePath(path)
  const { dirHash, found } = await requireConfig(core, core.state.rootOf(HEAD), dir)
  const existing = await readIndexRoots(core.meta, dirHash, found.hash)
  if (existing !== undefined) {
    const documents = (await collect(core, dir, dirHash, found, options, true)).documents
    return {
      path: dir,
      documents,
      built: false,
      durationMs: Math.round(performance.now() - started),
    }
  }
  const { entries, documents } = await collect(core, dir, dirHash, found, options, false)
  throwIfAborted(options.signal, 'the reindex')
  const built = new WriteSet(core.objects)
  const roots = entries.map((list) => buildDirectory(built, list))
  core.indexes.markInUse()
  await core.writes.submit({
    async apply({ rootOf, objects }) {
      for (const { object } of built.entries()) objects.put(object)
      const ops = [writeIndexRoots(dirHash, found.hash, roots)]
      const current = await directoryAt(objects, rootOf(HEAD) as Uint8Array, dir)
      // Writes committed while building: carry the new indexes over them, in this batch.
      if (current !== undefined && toHex(current) !== toHex(dirHash)) {
        const pending = new Map([[toHex(indexRecordKey(dirHash, found.hash)), roots]])
        const carried = await maintainIndexes(
          { objects, chunks: core.chunks, meta: core.meta, pending },
          dirHash,
          current,
          dir,
        )
        ops.push(...carried.ops)
      }
      return { ops, result: undefined }
    },
  })
  core.gc.add(...roots)
  return { path: dir, documents, built: true, durationMs: Math.round(performance.now() - started) }
}

/** Reads every document of the directory and gathers each index's entries. */
async function collect(
  core: IndexBuildServices,
  dir: string,
  dirHash: Uint8Array,
  found: FoundConfig,
  options: ReindexOptions,
  countOnly: boolean,
): Promise<{ entries: DirEntry[][]; documents: number }> {
  const scope = documentScope(found.config)
  const json = needsJson(found.config)
  const entries: DirEntry[][] = found.config.indexes.map(() => [])
  const rootPage = await loadPage(core.objects, dirHash)
  const total =
    rootPage.type === 'leaf'
      ? rootPage.entries.length
      : rootPage.items.reduce((n, i) => n + (scope.nested ? i.files : i.entries), 0)
  let documents = 0
  let seen = 0
  for await (const [relPath, entry] of documentFiles(core.objects, dirHash, dir, dir, scope)) {
    const path = childPath(dir, relPath)
    if (++seen % 256 === 0) {
      throwIfAborted(options.signal, 'the reindex')
      await options.onProgress?.({ done: seen, total: Math.max(total, seen) })
    }
    documents++
    if (countOnly) continue
    const document = await readDocument(core.objects, core.chunks, entry, path, json)
    documentKeys(found.config, document, relPath).forEach((key, i) => {
      if (key !== undefined) (entries[i] as DirEntry[]).push(indexEntry(key, entry))
    })
  }
  await options.onProgress?.({ done: seen, total: Math.max(total, seen) })
  return { entries, documents }
}
