import { EngineError } from '../errors'
import type { HashAlgorithm } from '../hashing/hasher'
import { FORMAT_KEY } from '../meta/keys'
import type { MetaStore } from '../meta/meta-store'
import { jsonValue, parseJson } from './stored-json'

/**
 * Version of the database layout, recorded at creation and raised when a newer engine opens
 * an older database. 2: chunk records may use the Brotli codec, which engines of format 1
 * would report as corrupt; they refuse the database instead.
 */
export const DATABASE_FORMAT_VERSION = 2

/** What a database records about itself when created. */
export interface FormatRecord {
  formatVersion: number
  hashAlgorithm: HashAlgorithm
  chunker: { min: number; avg: number; max: number }
  createdAt: number
}

/** Reads the format record, refusing layouts this version cannot read. */
export async function readFormat(meta: MetaStore): Promise<FormatRecord | undefined> {
  const format = parseJson<FormatRecord>(await meta.get('meta', FORMAT_KEY))
  if (format !== undefined && format.formatVersion > DATABASE_FORMAT_VERSION) {
    throw new EngineError(
      'CONFLICT',
      `database format ${format.formatVersion} is newer than this engine supports (${DATABASE_FORMAT_VERSION}); upgrade @svcdb/engine`,
    )
  }
  return format
}

/**
 * Raises an older database's format record to {@link DATABASE_FORMAT_VERSION} (synced) before
 * anything of the newer layout is written; everything an older format stored stays readable.
 */
export async function upgradeFormat(meta: MetaStore, format: FormatRecord): Promise<FormatRecord> {
  if (format.formatVersion >= DATABASE_FORMAT_VERSION) return format
  const upgraded = { ...format, formatVersion: DATABASE_FORMAT_VERSION }
  await meta.batch([{ type: 'put', space: 'meta', key: FORMAT_KEY, value: jsonValue(upgraded) }], {
    sync: true,
  })
  return upgraded
}
