import { GLOBSTAR, Minimatch, escape } from 'minimatch'
import { MAX_GLOB_ALTERNATIVES, countGlobAlternatives } from './glob-alternatives'

/**
 * Options shared by every glob: `*` and `**` match names starting with a dot too (a rule for
 * `/**` must cover `/.svcdb`), and neither `!` negation nor `#` comments have a meaning.
 */
const OPTIONS = {
  dot: true,
  nonegate: true,
  nocomment: true,
  platform: 'linux',
} as const

/** Longest path pattern accepted. */
const MAX_PATTERN_LENGTH = 1024

/**
 * A compiled path glob. Semantics (minimatch): `*` matches within one path segment, `**`
 * matches any number of segments, zero included, so `/docs/**` covers `/docs` itself and
 * everything below it; `?`, `[abc]` and `{a,b}` work as in a shell.
 */
export interface PathGlob {
  readonly pattern: string
  /** True when `path` (absolute, normalised) matches the glob. */
  matches(path: string): boolean
  /**
   * True when `path` is a proper ancestor of some path the glob could match: the directories
   * leading to a scoped path.
   */
  leadsTo(path: string): boolean
  /**
   * True when the glob matches every path strictly below `path`, whatever its name (`/a/**`
   * covers everything below `/a` and below `/a/b`); false when it cannot tell.
   */
  coversBelow(path: string): boolean
}

/** True for a pattern this library accepts: absolute (`/…`), at most 1024 characters, no NUL. */
export function isPathPattern(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.startsWith('/') &&
    value.length <= MAX_PATTERN_LENGTH &&
    !value.includes('\0')
  )
}

/**
 * Compiles `pattern`, whose brace sets may expand to at most `maxAlternatives` patterns.
 *
 * @throws {TypeError} when {@link isPathPattern} refuses `pattern`.
 * @throws {RangeError} when its braces expand to more than `maxAlternatives` patterns
 * (check with `countGlobAlternatives` first); nothing that large is ever built.
 */
export function compilePathGlob(
  pattern: string,
  maxAlternatives: number = MAX_GLOB_ALTERNATIVES,
): PathGlob {
  if (!isPathPattern(pattern)) throw new TypeError(`not a path pattern: ${pattern}`)
  const tooMany = () =>
    new RangeError(`${pattern} expands to more than ${maxAlternatives} patterns`)
  if (countGlobAlternatives(pattern, maxAlternatives) > maxAlternatives) throw tooMany()
  // The expansion stops one past the limit, whatever the count above missed.
  const mm = new Minimatch(pattern, { ...OPTIONS, braceExpandMax: maxAlternatives + 1 })
  if (mm.set.length > maxAlternatives) throw tooMany()
  // Each brace alternative as its segment parts, without the empty part before the leading '/'.
  const alternatives = mm.set.map((parts) => parts.slice(1))
  return {
    pattern,
    // Testing `path + '/'` lets a trailing `**` match zero segments.
    matches: (path) => mm.match(path) || (path !== '/' && mm.match(`${path}/`)),
    leadsTo(path) {
      const segments = path === '/' ? [] : path.slice(1).split('/')
      return alternatives.some((parts) => {
        for (let i = 0; i < segments.length; i++) {
          const part = parts[i]
          const segment = segments[i] ?? ''
          if (part === undefined) return false
          if (part === GLOBSTAR) return true
          if (typeof part === 'string' ? part !== segment : !part.test(segment)) return false
        }
        return parts.length > segments.length
      })
    },
    coversBelow(path) {
      const segments = path === '/' ? [] : path.slice(1).split('/')
      return alternatives.some((parts) => {
        // A literal prefix of `path` followed by a final `**` (and nothing else).
        if (parts.length === 0 || parts[parts.length - 1] !== GLOBSTAR) return false
        const literal = parts.slice(0, -1)
        if (literal.length > segments.length) return false
        return literal.every((part, i) => typeof part === 'string' && part === segments[i])
      })
    },
  }
}

/**
 * The glob covering exactly `path` and everything below it (`/a [1]` → `/a \[1\]/**`), used
 * for share links.
 */
export function globForSubtree(path: string): string {
  if (path === '/') return '/**'
  // minimatch's escape leaves braces alone: `/a{b,c}` would grant `/ab` and `/ac`.
  const escaped = escape(path, { windowsPathsNoEscape: false }).replace(/[{}]/g, '\\$&')
  return `${escaped}/**`
}

/**
 * `path` in the form the evaluator expects: a leading `/`, no empty segments, no trailing `/`
 * (except the root itself).
 */
export function normalizeTargetPath(path: string): string {
  const segments = path.split('/').filter((s) => s !== '')
  return `/${segments.join('/')}`
}
