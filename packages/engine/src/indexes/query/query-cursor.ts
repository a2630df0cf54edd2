import { EngineError } from '../../errors'

/** Where a page ended: the version queried, which query, and the last sort key served. */
export interface CursorState {
  /** Hex hash of the version: every page of a query reads the same version. */
  version: string
  /** Fingerprint of the query, so a cursor is not used with another one. */
  query: string
  key: string
}

/** A short fingerprint of the query's shape (FNV-1a): not a security check, a mix-up check. */
export function queryFingerprint(shape: unknown): string {
  const text = JSON.stringify(shape)
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(36)
}

/** An opaque cursor (base64url JSON). */
export function encodeCursor(state: CursorState): string {
  const json = JSON.stringify({ v: state.version, q: state.query, k: state.key })
  return btoa(String.fromCharCode(...new TextEncoder().encode(json)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/** Reads a cursor, checking it belongs to this query. */
export function decodeCursor(cursor: string, query: string): CursorState {
  let state: { v?: unknown; q?: unknown; k?: unknown }
  try {
    const base64 = cursor.replace(/-/g, '+').replace(/_/g, '/')
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    state = JSON.parse(new TextDecoder().decode(bytes)) as typeof state
  } catch {
    throw new EngineError('INVALID_INPUT', 'invalid query: `after` is not a cursor of this API')
  }
  if (typeof state.v !== 'string' || typeof state.k !== 'string' || typeof state.q !== 'string')
    throw new EngineError('INVALID_INPUT', 'invalid query: `after` is not a cursor of this API')
  if (state.q !== query)
    throw new EngineError('INVALID_INPUT', 'invalid query: `after` belongs to another query')
  return { version: state.v, query: state.q, key: state.k }
}
