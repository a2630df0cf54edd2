import { Minimatch } from 'minimatch'
import { EngineError } from '../errors'
import { MAX_GLOB_ALTERNATIVES, MAX_GLOB_LENGTH, countGlobAlternatives } from './glob-limits'

/** A glob compiled once: tests relative paths (dot files included). */
export type GlobMatcher = (relPath: string) => boolean

/**
 * Checks a glob against {@link MAX_GLOB_LENGTH} and {@link MAX_GLOB_ALTERNATIVES} and compiles
 * it once, so each path costs one test per alternative (minimatch does not cache compiled
 * patterns: compiling per path blocked the event loop for seconds). `what` names the glob in
 * the `INVALID_INPUT` error, e.g. `'the listing glob'`.
 */
export function compileGlob(glob: string, what: string): GlobMatcher {
  if (glob.length > MAX_GLOB_LENGTH)
    throw new EngineError(
      'INVALID_INPUT',
      `${what} is ${glob.length} characters long; at most ${MAX_GLOB_LENGTH} are allowed`,
    )
  const alternatives = countGlobAlternatives(glob)
  if (alternatives > MAX_GLOB_ALTERNATIVES)
    throw new EngineError(
      'INVALID_INPUT',
      `${what} expands to ${Number.isFinite(alternatives) && alternatives < 1e9 ? alternatives : 'too many'} patterns through its braces; at most ${MAX_GLOB_ALTERNATIVES} are allowed ({a,b} counts 2, {1..20} counts 20, groups in a row multiply)`,
    )
  // The cap also bounds minimatch's own expansion, whatever the count said.
  const compiled = new Minimatch(glob, { dot: true, braceExpandMax: MAX_GLOB_ALTERNATIVES })
  return (relPath) => compiled.match(relPath)
}
