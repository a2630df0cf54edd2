/** The hash of the Files screen at the root. */
export const FILES_ROOT_HASH = '#/files'

/**
 * The directory a location hash names (`#/files/a/b` is `/a/b`; `#/files` and an empty hash
 * are `/`), or `undefined` for a hash of another screen or one that does not decode.
 */
export function pathFromHash(hash: string): string | undefined {
  if (hash === '' || hash === '#' || hash === '#/') return '/'
  if (hash !== FILES_ROOT_HASH && !hash.startsWith(`${FILES_ROOT_HASH}/`)) return undefined
  try {
    const segments = hash
      .slice(FILES_ROOT_HASH.length)
      .split('/')
      .filter((segment) => segment !== '')
      .map(decodeURIComponent)
    // `.` and `..` would name another directory than the one shown.
    if (segments.some((s) => s === '.' || s === '..' || s.includes('/'))) return undefined
    return `/${segments.join('/')}`
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
