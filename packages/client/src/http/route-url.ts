/** A query value: absent values are left out; booleans and numbers are written as text. */
export type QueryValue = string | number | boolean | undefined

/**
 * The URL of a contract route: `{name}` takes one encoded segment, `{name*}` a path whose
 * segments are encoded one by one (so `/` stays a separator and nothing else escapes).
 *
 * @example
 * routeUrl('http://db', '/files/{path*}', { path: '/a b/c.txt' }, { fork: 'x' })
 * // 'http://db/files/a%20b/c.txt?fork=x'
 */
export function routeUrl(
  baseUrl: string,
  template: string,
  params: Record<string, string> = {},
  query: Record<string, QueryValue> = {},
): string {
  const path = template.replace(
    /\{([a-z_][a-z0-9_]*)(\*?)\}/gi,
    (_m, name: string, rest: string) => {
      const value = params[name]
      if (value === undefined) throw new TypeError(`missing route parameter ${name}`)
      if (rest !== '*') return encodeURIComponent(value)
      return value
        .split('/')
        .filter((segment) => segment !== '')
        .map(encodeURIComponent)
        .join('/')
    },
  )
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.set(key, String(value))
  }
  const text = search.toString()
  return `${baseUrl.replace(/\/+$/, '')}${path}${text === '' ? '' : `?${text}`}`
}
