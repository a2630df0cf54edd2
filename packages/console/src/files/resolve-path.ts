/**
 * The absolute path `input` names from the directory `dir`: an absolute input stands alone,
 * a relative one is read from `dir`; `.` and `..` are resolved. `undefined` when it names
 * nothing the server accepts: empty, the root itself, or above the root.
 *
 * @example
 * resolvePath('/docs', 'old/a.txt') // '/docs/old/a.txt'
 * resolvePath('/docs', '../a.txt') // '/a.txt'
 */
export function resolvePath(dir: string, input: string): string | undefined {
  const trimmed = input.trim()
  if (trimmed === '' || trimmed.includes('\0')) return undefined
  const segments: string[] = []
  const whole = trimmed.startsWith('/') ? trimmed : `${dir}/${trimmed}`
  for (const segment of whole.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (segments.pop() === undefined) return undefined
      continue
    }
    segments.push(segment)
  }
  if (segments.length === 0) return undefined
  return `/${segments.join('/')}`
}

/** The directory `path` is in (`/a/b` is in `/a`, `/a` in `/`). */
export function parentPath(path: string): string {
  const at = path.replace(/\/+$/, '').lastIndexOf('/')
  return at <= 0 ? '/' : path.slice(0, at)
}

/** The path of `name` inside the directory `dir`. */
export function childPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir.replace(/\/+$/, '')}/${name}`
}
