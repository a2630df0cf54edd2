import { toHex } from '../internal/hex'
import { HASH_LENGTH } from './chunk-record'

/** Where a blob chunk store keeps its objects: every key it writes or sweeps starts with it. */
export const BLOB_CHUNK_PREFIX = 'chunks/'

const KEY = /^chunks\/([0-9a-f]{2})\/([0-9a-f]{64})$/

/**
 * The object key of a chunk: `chunks/<first 2 hex>/<64 hex>`, lowercase. The two-letter
 * folder spreads keys over 256 prefixes (S3 scales request rates per prefix).
 */
export function blobChunkKey(hash: Uint8Array): string {
  const hex = toHex(hash)
  return `${BLOB_CHUNK_PREFIX}${hex.slice(0, 2)}/${hex}`
}

/** The hash a chunk key names, or `undefined` for any other key (never swept). */
export function hashOfBlobChunkKey(key: string): Uint8Array | undefined {
  const match = KEY.exec(key)
  if (match === null) return undefined
  const [, folder, hex] = match as unknown as [string, string, string]
  if (!hex.startsWith(folder)) return undefined
  const hash = new Uint8Array(Buffer.from(hex, 'hex'))
  return hash.length === HASH_LENGTH ? hash : undefined
}
