import { BINARY_SPACES } from '@svcdb/engine'
import type { KeyOf, Space } from '@svcdb/engine'

const binarySpaces = new Set<Space>(BINARY_SPACES)
const decoder = new TextDecoder()

/**
 * A key as the `bytea` PostgreSQL stores: binary keys as they are, text keys as their UTF-8
 * bytes (so both sort bytewise, as in LevelDB).
 */
export function keyBytes<S extends Space>(key: KeyOf<S>): Buffer {
  if (typeof key === 'string') return Buffer.from(key, 'utf8')
  const bytes = key as Uint8Array
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** A stored `bytea` as the key type of `space`. */
export function keyOf<S extends Space>(space: S, stored: Buffer): KeyOf<S> {
  return (binarySpaces.has(space) ? plainBytes(stored) : decoder.decode(stored)) as KeyOf<S>
}

/**
 * `pg`'s `Buffer` as a plain `Uint8Array` over the same memory (what the LevelDB driver
 * returns; no copy).
 */
export function plainBytes(stored: Buffer): Uint8Array {
  return new Uint8Array(stored.buffer, stored.byteOffset, stored.byteLength)
}
