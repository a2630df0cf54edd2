import type { ChunkStore } from '../chunks/chunk-store'
import { toHex } from '../internal/hex'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import type { WriteSet } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { RESERVED_NAME } from '../path/db-path'
import { diffDirectoryPages } from '../tree/prolly/page-diff'
import { iterateEntries, loadPage } from '../tree/prolly/prolly-read'
import { editDirectory } from '../tree/prolly/prolly-write'
import { childPath, documentScope, relativeTo } from './document-scope'
import type { DocumentScope } from './document-scope'
import { findIndexConfig } from './find-config'
import type { IndexConfig } from './index-config'
import { documentKeys, indexEntry, needsJson, readDocument } from './index-documents'
import { indexRecordKey } from '../meta/keys'
import { readIndexRoots, writeIndexRoots } from './index-store'

/** What maintenance reads and writes through. */
export interface MaintenanceDeps {
  objects: WriteSet
  chunks: ChunkStore
  meta: MetaStore
  /** Records written earlier in the same batch (a reindex catching up), by record key hex. */
  pending?: ReadonlyMap<string, Uint8Array[]>
}

/** An indexed directory whose indexes are being carried from one version to the next. */
interface Carried {
  dir: string
  config: IndexConfig
  configHash: Uint8Array
  scope: DocumentScope
  json: boolean
  roots: Uint8Array[]
  edits: Map<string, DirEntry | null>[]
}

/** What maintenance produced: ops for the group's batch, and new index roots (for GC). */
export interface MaintenanceOutcome {
  ops: MetaOp[]
  roots: Uint8Array[]
}

/**
 * Carries the indexes of every indexed directory from version `from` to version `to` of a
 * ref (DESIGN §3.8), in the same batch as the change. Only directories on changed paths are
 * visited, and within them only changed pages, so the cost follows the change. A directory
 * whose indexes were not built for `from` (never reindexed, or its config just changed) is
 * left alone: its reindex task builds them. `from` and `to` are the trees of `dir` (`/` for a
 * whole version).
 */
export async function maintainIndexes(
  deps: MaintenanceDeps,
  from: Uint8Array,
  to: Uint8Array,
  dir = '/',
): Promise<MaintenanceOutcome> {
  const outcome: MaintenanceOutcome = { ops: [], roots: [] }
  await visit(deps, dir, from, to, [], outcome)
  return outcome
}

async function visit(
  deps: MaintenanceDeps,
  dir: string,
  before: Uint8Array,
  after: Uint8Array,
  outer: readonly Carried[],
  outcome: MaintenanceOutcome,
): Promise<void> {
  const own = await carried(deps, dir, before, after)
  const active = own === undefined ? outer : [...outer, own]
  for await (const { before: old, after: now } of diffDirectoryPages(deps.objects, before, after)) {
    const name = (old ?? now)?.name as string
    if (name === RESERVED_NAME) continue
    const path = childPath(dir, name)
    if (old?.kind === 'directory' && now?.kind === 'directory') {
      await visit(deps, path, old.hash, now.hash, active, outcome)
      continue
    }
    if (old !== undefined) await record(deps, path, old, active, 'remove')
    if (now !== undefined) await record(deps, path, now, active, 'add')
  }
  if (own === undefined) return
  const roots: Uint8Array[] = []
  for (const [i, edits] of own.edits.entries()) {
    const root = own.roots[i] as Uint8Array
    roots.push(
      edits.size === 0
        ? root
        : await editDirectory(deps.objects, await loadPage(deps.objects, root), edits),
    )
  }
  outcome.ops.push(writeIndexRoots(after, own.configHash, roots))
  outcome.roots.push(...roots)
}

/** The indexes of `dir` at `before`, ready to carry, when it is indexed there and still is. */
async function carried(
  deps: MaintenanceDeps,
  dir: string,
  before: Uint8Array,
  after: Uint8Array,
): Promise<Carried | undefined> {
  const found = await findIndexConfig(deps.objects, deps.chunks, after)
  if (found === undefined || !('config' in found)) return undefined
  const roots =
    deps.pending?.get(toHex(indexRecordKey(before, found.hash))) ??
    (await readIndexRoots(deps.meta, before, found.hash))
  if (roots === undefined || roots.length !== found.config.indexes.length) return undefined
  return {
    dir,
    config: found.config,
    configHash: found.hash,
    scope: documentScope(found.config),
    json: needsJson(found.config),
    roots,
    edits: found.config.indexes.map(() => new Map()),
  }
}

/** Adds or removes the keys of an entry (every file below it, for a directory). */
async function record(
  deps: MaintenanceDeps,
  path: string,
  entry: DirEntry,
  active: readonly Carried[],
  change: 'add' | 'remove',
): Promise<void> {
  if (active.length === 0) return
  if (entry.kind === 'directory') {
    // Only indexes whose documents may nest can hold anything below a subdirectory.
    const nested = active.filter((c) => c.scope.nested)
    if (nested.length === 0) return
    const page = await loadPage(deps.objects, entry.hash)
    for await (const child of iterateEntries(deps.objects, page)) {
      if (child.name === RESERVED_NAME) continue
      await record(deps, childPath(path, child.name), child, nested, change)
    }
    return
  }
  if (entry.kind !== 'file') return
  const targets = active.filter((c) => c.scope.includes(relativeTo(c.dir, path)))
  if (targets.length === 0) return
  const document = await readDocument(
    deps.objects,
    deps.chunks,
    entry,
    path,
    targets.some((c) => c.json),
  )
  for (const target of targets) {
    const keys = documentKeys(target.config, document, relativeTo(target.dir, path))
    keys.forEach((key, i) => {
      if (key === undefined) return
      const edits = target.edits[i] as Map<string, DirEntry | null>
      edits.set(key, change === 'remove' ? null : indexEntry(key, entry))
    })
  }
}
