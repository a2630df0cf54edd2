import type { ChunkStore } from '../../chunks/chunk-store'
import { EngineError, throwIfAborted } from '../../errors'
import { parseHash, toHex } from '../../internal/hex'
import type { MetaStore } from '../../meta/meta-store'
import type { ObjectReader } from '../../objects/object-store'
import type { DirEntry } from '../../objects/tree-objects'
import { normalizePath } from '../../path/db-path'
import { iterateEntries, loadPage } from '../../tree/prolly/prolly-read'
import { directoryAt } from '../directory-at'
import { documentFiles } from '../document-files'
import { childPath, documentScope } from '../document-scope'
import type { DocumentScope } from '../document-scope'
import { findIndexConfig } from '../find-config'
import type { IndexConfig, IndexType } from '../index-config'
import type { IndexedDocument } from '../index-documents'
import { readDocument } from '../index-documents'
import { readIndexRoots } from '../index-store'
import { indexBackward, indexForward } from '../index-tree'
import { asFieldValue, indexKey, readField, relPathOfKey } from '../index-values'
import type { Compiled } from './compile-condition'
import { compileCondition, conditionFields, fieldType } from './compile-condition'
import { evaluate } from './evaluate-condition'
import { conjuncts, inRange, keyRangeFor } from './key-range'
import type { KeyRange } from './key-range'
import { decodeCursor, encodeCursor, queryFingerprint } from './query-cursor'
import type { QueryItem, QueryOptions, QueryResult } from '../../read/query-types'

/** What a query reads. */
export interface QueryDeps {
  objects: ObjectReader
  chunks: ChunkStore
  meta: MetaStore
}

/** A document that may answer, with its place in the order. */
interface Candidate {
  relPath: string
  entry: DirEntry
  /** Its sort key; computed from the document when the source does not know it. */
  key?: string
  /** The document, already read and found to answer (a sorted scan). */
  document?: IndexedDocument
}

interface Plan {
  dir: string
  scope: DocumentScope
  where: Compiled | undefined
  order: { field: string; type: IndexType; desc: boolean }
  json: boolean
  limit: number
  cursorKey: string | undefined
}

const DEFAULT_LIMIT = 100
const MAX_LIMIT = 1000

/**
 * Answers a query over one version (DESIGN §3.8). An index drives it when the order field is
 * indexed, or when it orders by path and a top-level `eq` names an indexed field; otherwise it
 * scans the directory. Either way every condition is checked on the document itself, so
 * both plans give the same answers. Every page of a query reads the version of its first
 * page, so paging never skips or repeats a document.
 */
export async function runQuery(
  deps: QueryDeps,
  root: Uint8Array,
  options: QueryOptions,
): Promise<QueryResult> {
  const dir = normalizePath(options.path)
  const limit = options.limit ?? DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new EngineError('INVALID_INPUT', `invalid query: limit must be 1 to ${MAX_LIMIT}`)
  const orderBy = typeof options.orderBy === 'string' ? { field: options.orderBy } : options.orderBy
  const fingerprint = queryFingerprint([dir, options.where ?? null, orderBy ?? null])
  const cursor = options.after === undefined ? undefined : decodeCursor(options.after, fingerprint)
  const version = cursor === undefined ? root : parseHash(cursor.version)

  const dirHash = await directoryAt(deps.objects, version, dir).catch((err: unknown) => {
    if (cursor !== undefined)
      throw new EngineError(
        'INVALID_INPUT',
        "invalid query: the cursor's version is no longer stored",
      )
    throw err
  })
  if (dirHash === undefined)
    throw new EngineError('NOT_FOUND', `${dir} is not a directory`, { path: dir })
  const found = await findIndexConfig(deps.objects, deps.chunks, dirHash)
  if (found !== undefined && 'error' in found) throw found.error
  const config: IndexConfig | undefined = found?.config
  const where = compileCondition(options.where, config)
  const orderField = orderBy?.field ?? '@path'
  const orderType = orderField === '@path' ? 'string' : fieldType(orderField, config)
  if (orderType === undefined)
    throw new EngineError(
      'INVALID_INPUT',
      `invalid query: order_by ${orderField} needs the field declared in ${dir}/.svcdb/indexes.json (its type), or a virtual field`,
    )
  if (
    orderBy?.direction !== undefined &&
    orderBy.direction !== 'asc' &&
    orderBy.direction !== 'desc'
  )
    throw new EngineError('INVALID_INPUT', 'invalid query: order_by.direction is asc or desc')
  const fields = conditionFields(where)
  if (orderField !== '@path') fields.add(orderField)
  const plan: Plan = {
    dir,
    scope: documentScope(config ?? { glob: '*', indexes: [] }),
    where,
    order: { field: orderField, type: orderType, desc: orderBy?.direction === 'desc' },
    json: [...fields].some((f) => !f.startsWith('@')),
    limit,
    cursorKey: cursor?.key,
  }
  const roots =
    found === undefined ? undefined : await readIndexRoots(deps.meta, dirHash, found.hash)
  const indexRoot = (field: string) => {
    const i = config?.indexes.findIndex((index) => index.field === field) ?? -1
    return i < 0 || roots === undefined ? undefined : roots[i]
  }

  let source: AsyncIterable<Candidate> | Iterable<Candidate>
  let usedIndex = false
  const ordered = orderField === '@path' ? undefined : indexRoot(orderField)
  const eqField =
    orderField === '@path'
      ? conjuncts(where).find(
          (c) => c.kind === 'cmp' && c.op === 'eq' && indexRoot(c.field) !== undefined,
        )
      : undefined
  if (ordered !== undefined) {
    usedIndex = true
    source = fromIndex(deps, ordered, keyRangeFor(orderField, where), plan, (key) => key)
  } else if (eqField !== undefined && eqField.kind === 'cmp') {
    usedIndex = true
    source = fromIndex(
      deps,
      indexRoot(eqField.field) as Uint8Array,
      keyRangeFor(eqField.field, {
        kind: 'cmp',
        field: eqField.field,
        op: 'eq',
        type: eqField.type,
        value: eqField.value as never,
      }),
      plan,
      relPathOfKey,
      eqField.value === undefined ? undefined : (rel) => indexKey(eqField.value as never, rel),
    )
  } else if (orderField === '@path' && !plan.scope.nested) {
    source = fromDirectory(deps, dirHash, plan)
  } else {
    source = await sorted(deps, dirHash, plan, options)
  }

  const items: { item: QueryItem; key: string }[] = []
  let seen = 0
  for await (const candidate of source) {
    if (++seen % 256 === 0) throwIfAborted(options.signal, 'the query')
    const path = childPath(dir, candidate.relPath)
    let document = candidate.document
    if (document === undefined) {
      if (options.canRead !== undefined && !options.canRead(path)) continue
      document = await readDocument(deps.objects, deps.chunks, candidate.entry, path, plan.json)
      if (!evaluate(where, document)) continue
    }
    const key = candidate.key ?? sortKey(plan, document, candidate.relPath)
    if (key === undefined) continue
    items.push({ item: itemOf(document), key })
    if (items.length > limit) break
  }
  const result: QueryResult = {
    items: items.slice(0, limit).map((i) => i.item),
    plan: usedIndex ? 'index' : 'scan',
  }
  if (items.length > limit)
    result.next = encodeCursor({
      version: toHex(version),
      query: fingerprint,
      key: (items[limit - 1] as { key: string }).key,
    })
  return result
}

/** A document's place in the order, or `undefined` when it lacks the order field. */
function sortKey(plan: Plan, document: IndexedDocument, relPath: string): string | undefined {
  if (plan.order.field === '@path') return relPath
  const value = asFieldValue(
    readField(plan.order.field, document.json, document.facts),
    plan.order.type,
  )
  return value === undefined ? undefined : indexKey(value, relPath)
}

function itemOf(document: IndexedDocument): QueryItem {
  return { ...document.facts }
}

/** A file entry named as the file (index entries are named by their keys). */
function asFileEntry(entry: DirEntry, relPath: string): DirEntry {
  return { ...entry, name: relPath.slice(relPath.lastIndexOf('/') + 1) }
}

/**
 * Candidates from an index, in key order (reversed for `desc`), within `range` and past the
 * cursor. `keyOf` turns an index key into the sort key; `cursorToKey` the other way.
 */
async function* fromIndex(
  deps: QueryDeps,
  root: Uint8Array,
  range: KeyRange,
  plan: Plan,
  keyOf: (indexKey: string) => string,
  cursorToKey: (sortKey: string) => string = (k) => k,
): AsyncGenerator<Candidate> {
  const bounded: KeyRange = { ...range }
  if (plan.cursorKey !== undefined) {
    const at = cursorToKey(plan.cursorKey)
    if (plan.order.desc)
      bounded.high = bounded.high === undefined || at < bounded.high ? at : bounded.high
    else bounded.low = bounded.low === undefined || at > bounded.low ? at : bounded.low
  }
  const entries = plan.order.desc
    ? indexBackward(
        deps.objects,
        root,
        bounded.high,
        (key) => bounded.low !== undefined && key <= bounded.low,
      )
    : indexForward(
        deps.objects,
        root,
        bounded.low,
        (key) => bounded.high !== undefined && key >= bounded.high,
      )
  for await (const entry of entries) {
    if (!inRange(bounded, entry.name)) continue
    const relPath = relPathOfKey(entry.name)
    yield { relPath, entry: asFileEntry(entry, relPath), key: keyOf(entry.name) }
  }
}

/** The directory's own files in name order (reversed for `desc`), past the cursor. */
async function* fromDirectory(
  deps: QueryDeps,
  dirHash: Uint8Array,
  plan: Plan,
): AsyncGenerator<Candidate> {
  const entries = plan.order.desc
    ? indexBackward(deps.objects, dirHash, plan.cursorKey, () => false)
    : iterateEntries(deps.objects, await loadPage(deps.objects, dirHash), plan.cursorKey)
  for await (const entry of entries) {
    if (entry.kind !== 'file' || !plan.scope.includes(entry.name)) continue
    yield { relPath: entry.name, entry, key: entry.name }
  }
}

/** Every document, read, kept when it answers, sorted: for orders no index provides. */
async function sorted(
  deps: QueryDeps,
  dirHash: Uint8Array,
  plan: Plan,
  options: QueryOptions,
): Promise<Candidate[]> {
  const out: Candidate[] = []
  let seen = 0
  for await (const [relPath, entry] of documentFiles(
    deps.objects,
    dirHash,
    plan.dir,
    plan.dir,
    plan.scope,
  )) {
    if (++seen % 256 === 0) throwIfAborted(options.signal, 'the query')
    const path = childPath(plan.dir, relPath)
    if (options.canRead !== undefined && !options.canRead(path)) continue
    const document = await readDocument(deps.objects, deps.chunks, entry, path, plan.json)
    if (!evaluate(plan.where, document)) continue
    const key = sortKey(plan, document, relPath)
    if (key === undefined) continue
    if (
      plan.cursorKey !== undefined &&
      (plan.order.desc ? key >= plan.cursorKey : key <= plan.cursorKey)
    )
      continue
    out.push({ relPath, entry, key, document })
  }
  out.sort((a, b) => {
    const order = (a.key as string) < (b.key as string) ? -1 : 1
    return plan.order.desc ? -order : order
  })
  return out
}
