import { EngineError } from '../errors'

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

/** Parses a 64-digit hex hash, refusing anything else with `INVALID_HASH`. */
export function parseHash(hex: string): Uint8Array {
  if (typeof hex !== 'string' || !/^[0-9a-f]{64}$/i.test(hex)) {
    throw new EngineError(
      'INVALID_HASH',
      `not a hash (expected 64 hex digits): ${JSON.stringify(String(hex).slice(0, 80))}`,
    )
  }
  return new Uint8Array(Buffer.from(hex, 'hex'))
}

/** Bytewise equality. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
