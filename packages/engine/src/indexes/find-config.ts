import type { ChunkStore } from '../chunks/chunk-store'
import { EngineError, isEngineError } from '../errors'
import { toHex } from '../internal/hex'
import type { ObjectReader } from '../objects/object-store'
import type { DirEntry, FileObject } from '../objects/tree-objects'
import { RESERVED_NAME } from '../path/db-path'
import { readFileContent } from '../read/file-content'
import { loadPage, lookupEntry } from '../tree/prolly/prolly-read'
import type { IndexConfig } from './index-config'
import { MAX_INDEX_CONFIG_BYTES, parseIndexConfig } from './index-config'

/** A directory's index configuration, with the hash of its file entry (its identity). */
export interface FoundConfig {
  /** The config file's object hash: configs with equal bytes and times share indexes. */
  hash: Uint8Array
  config: IndexConfig
}

/** Parsed configs by file object hash: they are immutable, and few. */
const parsed = new Map<string, IndexConfig | Error>()
const MAX_CACHED = 256

/**
 * The index configuration of the directory whose tree hash is `dirHash`, if it has one.
 * A config that does not parse is reported as `{ error }`: writes skip it, queries refuse it.
 */
export async function findIndexConfig(
  objects: ObjectReader,
  chunks: ChunkStore,
  dirHash: Uint8Array,
): Promise<FoundConfig | { hash: Uint8Array; error: Error } | undefined> {
  const reserved = await lookupEntry(objects, await loadPage(objects, dirHash), RESERVED_NAME)
  if (reserved?.kind !== 'directory') return undefined
  const file = await lookupEntry(objects, await loadPage(objects, reserved.hash), 'indexes.json')
  if (file?.kind !== 'file') return undefined
  const key = toHex(file.hash)
  let config = parsed.get(key)
  if (config === undefined) {
    config = await parseStored(objects, chunks, file).catch((err: unknown) =>
      isEngineError(err) ? err : (err as Error),
    )
    if (parsed.size >= MAX_CACHED) parsed.delete(parsed.keys().next().value as string)
    parsed.set(key, config)
  }
  return config instanceof Error ? { hash: file.hash, error: config } : { hash: file.hash, config }
}

async function parseStored(
  objects: ObjectReader,
  chunks: ChunkStore,
  entry: DirEntry,
): Promise<IndexConfig> {
  if (entry.size > MAX_INDEX_CONFIG_BYTES)
    throw new EngineError(
      'INVALID_INPUT',
      `invalid index configuration: larger than ${MAX_INDEX_CONFIG_BYTES} bytes`,
    )
  const file = (await objects.get(entry.hash)) as FileObject
  const parts: Uint8Array[] = []
  if (entry.size > 0)
    for await (const part of readFileContent(objects, chunks, file, {
      start: 0,
      end: entry.size - 1,
    }))
      parts.push(part)
  return parseIndexConfig(new TextDecoder().decode(Buffer.concat(parts)))
}
