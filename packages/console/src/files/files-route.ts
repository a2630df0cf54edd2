/** The hash of the Files screen at the root. */
export const FILES_ROOT_HASH = '#/files'

/** The marker after a directory's hash that opens its query view (`#/files/a?query`). */
const QUERY_MARKER = '?query'

/** What the Files screen shows: a directory's listing, or the query view of its documents. */
export interface FilesRoute {
  path: string
  view: 'listing' | 'query'
}

/**
 * The directory a location hash names (`#/files/a/b` is `/a/b`; `#/files` and an empty hash
 * are `/`), or `undefined` for a hash of another screen or one that does not decode.
 */
export function pathFromHash(hash: string): string | undefined {
  return routeFromHash(hash)?.path
}

/**
 * The route a location hash names: `#/files/a/b` lists `/a/b`, `#/files/a/b?query` queries it.
 * A name's own `?` is always escaped (`%3F`), so a bare one can only be the marker.
 */
export function routeFromHash(hash: string): FilesRoute | undefined {
  if (hash === '' || hash === '#' || hash === '#/') return { path: '/', view: 'listing' }
  const query = hash.endsWith(QUERY_MARKER)
  const bare = query ? hash.slice(0, -QUERY_MARKER.length) : hash
  if (bare !== FILES_ROOT_HASH && !bare.startsWith(`${FILES_ROOT_HASH}/`)) return undefined
  if (bare.includes('?')) return undefined
  try {
    const segments = bare
      .slice(FILES_ROOT_HASH.length)
      .split('/')
      .filter((segment) => segment !== '')
      .map(decodeURIComponent)
    // `.` and `..` would name another directory than the one shown.
    if (segments.some((s) => s === '.' || s === '..' || s.includes('/'))) return undefined
    return { path: `/${segments.join('/')}`, view: query ? 'query' : 'listing' }
  } catch {
    return undefined
  }
}

/** The location hash of the directory `path` (`/a b/c` is `#/files/a%20b/c`). */
export function hashForPath(path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '')
  if (segments.length === 0) return FILES_ROOT_HASH
  return `${FILES_ROOT_HASH}/${segments.map(encodeURIComponent).join('/')}`
}

/** The location hash of the query view of the directory `path` (`#/files/a?query`). */
export function hashForQuery(path: string): string {
  return `${hashForPath(path)}${QUERY_MARKER}`
}
