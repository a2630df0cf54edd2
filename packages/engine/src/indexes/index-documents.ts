import type { ChunkStore } from '../chunks/chunk-store'
import { toHex } from '../internal/hex'
import type { ObjectReader } from '../objects/object-store'
import type { DirEntry, FileObject } from '../objects/tree-objects'
import { readFileContent } from '../read/file-content'
import type { IndexConfig } from './index-config'
import type { DocumentFacts } from '../read/query-types'
import { asFieldValue, indexKey, readField, virtualType } from './index-values'

/** Documents larger than this are not parsed: their JSON fields read as absent. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024

/** A document as queries and indexes see it. */
export interface IndexedDocument {
  facts: DocumentFacts
  /** The parsed JSON, or `undefined` (not JSON, too large, or not asked for). */
  json: unknown
  /** The file's entry in its directory. */
  entry: DirEntry
}

const decoder = new TextDecoder('utf-8', { fatal: true })

/** Reads a file's facts and, when `withJson`, its parsed JSON. */
export async function readDocument(
  objects: ObjectReader,
  chunks: ChunkStore,
  entry: DirEntry,
  path: string,
  withJson: boolean,
): Promise<IndexedDocument> {
  const file = (await objects.get(entry.hash)) as FileObject
  const facts: DocumentFacts = {
    path,
    name: entry.name,
    size: entry.size,
    contentType: file.contentType === '' ? null : file.contentType,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    hash: toHex(file.contentHash),
  }
  let json: unknown
  if (withJson && entry.size > 0 && entry.size <= MAX_DOCUMENT_BYTES) {
    const bytes = new Uint8Array(entry.size)
    let at = 0
    for await (const part of readFileContent(objects, chunks, file, {
      start: 0,
      end: entry.size - 1,
    })) {
      bytes.set(part, at)
      at += part.length
    }
    try {
      json = JSON.parse(decoder.decode(bytes))
    } catch {
      json = undefined
    }
  }
  return { facts, json, entry }
}

/** True when the config indexes any JSON field (so documents must be read and parsed). */
export function needsJson(config: IndexConfig): boolean {
  return config.indexes.some((index) => virtualType(index.field) === undefined)
}

/** The key a document has in each index of `config` (`undefined` where it has no such value). */
export function documentKeys(
  config: IndexConfig,
  document: IndexedDocument,
  relPath: string,
): (string | undefined)[] {
  return config.indexes.map((index) => {
    const value = asFieldValue(readField(index.field, document.json, document.facts), index.type)
    return value === undefined ? undefined : indexKey(value, relPath)
  })
}

/** The index entry of a document: named by its key, pointing at the document's file object. */
export function indexEntry(key: string, file: DirEntry): DirEntry {
  return {
    name: key,
    kind: 'file',
    hash: file.hash,
    size: file.size,
    createdAt: file.createdAt,
    updatedAt: file.updatedAt,
    files: 0,
    dirs: 0,
    links: 0,
  }
}
