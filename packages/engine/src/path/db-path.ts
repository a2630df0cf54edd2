import { EngineError } from '../errors'

/** Longest accepted path, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 4096
/** Longest accepted name (one segment), in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255

const encoder = new TextEncoder()
// C0 controls, DEL and C1 controls: invisible in listings and dangerous in terminals and logs.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/**
 * True when `text` holds a character no database path may contain: a C0 control (NUL
 * included), DEL or a C1 control. {@link normalizePath} refuses such paths; a layer that
 * checks names before they reach the engine (a server reading a raw request line) uses this
 * so the rule lives in one place.
 *
 * @example
 * hasControlCharacter('a\nb') // true
 * hasControlCharacter('café') // false
 */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text)
}

function invalid(input: string, why: string): EngineError {
  return new EngineError('INVALID_PATH', `invalid path ${JSON.stringify(input)}: ${why}`, {
    path: input,
  })
}

/**
 * Normalises a database path to `/a/b/c` form and validates it. A leading slash is optional
 * and one trailing slash is ignored; everything else odd is refused with `INVALID_PATH`:
 * empty segments (`a//b`), `.` and `..`, NUL and control characters, names over 255 bytes
 * and paths over 4096 bytes. Names are kept byte for byte (no Unicode normalisation).
 *
 * @example
 * normalizePath('docs/a.txt') // '/docs/a.txt'
 * normalizePath('/')          // '/'
 */
export function normalizePath(input: string): string {
  if (typeof input !== 'string') throw invalid(String(input), 'not a string')
  if (hasControlCharacter(input)) throw invalid(input, 'control characters are not allowed')
  let path = input.startsWith('/') ? input : `/${input}`
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  if (path === '/') return path
  // A UTF-16 code unit takes at most 3 UTF-8 bytes: short strings need no encoding to be
  // known to fit (every read normalises its path; encoding was 2–3 % of a small GET).
  if (path.length * 3 > MAX_PATH_BYTES && utf8Length(path) > MAX_PATH_BYTES)
    throw invalid(input, `longer than ${MAX_PATH_BYTES} bytes`)
  for (const name of path.slice(1).split('/')) {
    if (name === '') throw invalid(input, 'empty segment')
    if (name === '.' || name === '..') throw invalid(input, `'${name}' segments are not allowed`)
    if (name.length * 3 > MAX_NAME_BYTES && utf8Length(name) > MAX_NAME_BYTES)
      throw invalid(input, `a name is longer than ${MAX_NAME_BYTES} bytes`)
  }
  return path
}

const utf8Length = (text: string): number => encoder.encode(text).length

/** The names of a normalised path: `/a/b` → `['a', 'b']`, `/` → `[]`. */
export function pathSegments(path: string): string[] {
  return path === '/' ? [] : path.slice(1).split('/')
}

/** Joins names into a normalised path. */
export function joinSegments(segments: readonly string[]): string {
  return `/${segments.join('/')}`
}

/** The parent of a normalised path (`/` is its own parent). */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('/')
  return i <= 0 ? '/' : path.slice(0, i)
}

/** The last name of a normalised path (`''` for `/`). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

/** Name of reserved configuration directories (DESIGN §7.1). */
export const RESERVED_NAME = '.svcdb'

/**
 * What a reserved path configures: `config` for `/.svcdb/…` at the root (webhooks),
 * `index-config` for `<dir>/.svcdb/…` below it; `undefined` for ordinary paths. Writing
 * reserved paths needs the `y` permission.
 */
export function reservedKind(path: string): 'config' | 'index-config' | undefined {
  const segments = pathSegments(path)
  const at = segments.indexOf(RESERVED_NAME)
  if (at < 0) return undefined
  return at === 0 ? 'config' : 'index-config'
}

/** True when `path` is `ancestor` or lies below it. */
export function isWithin(path: string, ancestor: string): boolean {
  return ancestor === '/' || path === ancestor || path.startsWith(`${ancestor}/`)
}
