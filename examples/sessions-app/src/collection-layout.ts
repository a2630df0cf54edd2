import { isSessionId } from './session-id'

/** What a file of the collection holds. */
export type CollectionFile = { kind: 'session'; id: string } | { kind: 'dispatched'; id: string }

const SESSION_SUFFIX = '.json'
const DISPATCHED_SUFFIX = '.dispatched.json'

/**
 * The flat layout of the collection in svcdb: `<collection>/<id>.json` holds a session and
 * `<collection>/<id>.dispatched.json` its dispatch record. Both are created once and never
 * rewritten, so a change of state is an append.
 */
export interface CollectionLayout {
  /** The collection directory, absolute, without a trailing slash (e.g. `/sessions`). */
  readonly dir: string
  sessionPath(id: string): string
  dispatchedPath(id: string): string
  /** What the file at an absolute `path` is, or undefined for anything else. */
  parse(path: string): CollectionFile | undefined
}

/** The layout of the collection at `dir` (absolute). Throws `TypeError` for a relative path. */
export function collectionLayout(dir: string): CollectionLayout {
  const normalized = dir.replace(/\/+$/, '')
  if (!normalized.startsWith('/'))
    throw new TypeError(`the collection must be an absolute svcdb path, got '${dir}'`)
  const prefix = `${normalized}/`
  return {
    dir: normalized,
    sessionPath: (id) => `${prefix}${id}${SESSION_SUFFIX}`,
    dispatchedPath: (id) => `${prefix}${id}${DISPATCHED_SUFFIX}`,
    parse(path) {
      if (!path.startsWith(prefix)) return undefined
      const name = path.slice(prefix.length)
      // Ids have no dot, so the longer suffix is tested first and the two never overlap.
      const kind = name.endsWith(DISPATCHED_SUFFIX) ? 'dispatched' : 'session'
      const suffix = kind === 'dispatched' ? DISPATCHED_SUFFIX : SESSION_SUFFIX
      if (!name.endsWith(suffix)) return undefined
      const id = name.slice(0, -suffix.length)
      return isSessionId(id) ? { kind, id } : undefined
    },
  }
}
