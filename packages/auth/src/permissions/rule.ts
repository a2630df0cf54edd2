import { AuthError } from '../errors'
import { MAX_GLOB_ALTERNATIVES, countRuleAlternatives } from './glob-alternatives'
import { isPathPattern } from './path-glob'
import { isPermissionString } from './permission-flags'

/**
 * A path rule of an API key, in the spec's form: an object with exactly one entry whose name
 * is a path glob and whose value is an 8-character permission string.
 *
 * @example
 * const rule: Rule = { '/docs/**': '-r--l---' }
 */
export type Rule = Readonly<Record<string, string>>

/** Most rules one key may carry. */
export const MAX_RULES = 1000

/** The glob and the permission string of a valid rule. */
export function ruleEntry(rule: Rule): [glob: string, permissions: string] {
  const entries = Object.entries(rule)
  const entry = entries[0]
  if (entries.length !== 1 || entry === undefined) throw new TypeError('a rule has one entry')
  return entry
}

/** Why `value` is not a valid rule, or `undefined` when it is. */
export function ruleProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'must be an object with exactly one entry'
  }
  const entries = Object.entries(value)
  const entry = entries[0]
  if (entries.length !== 1 || entry === undefined) return 'must have exactly one entry'
  const [glob, permissions] = entry
  if (!isPathPattern(glob)) return `glob ${JSON.stringify(glob)} must be an absolute path pattern`
  if (!isPermissionString(permissions)) {
    return 'permissions must be 8 characters: each position its letter of crudlify or -'
  }
  return undefined
}

/**
 * Checks an untrusted list of rules and returns a copy of it.
 *
 * @throws {AuthError} `INVALID_INPUT` naming the first bad rule, or when the rules' brace
 * sets expand to more than `MAX_GLOB_ALTERNATIVES` patterns together.
 */
export function parseRules(value: unknown): Rule[] {
  if (!Array.isArray(value)) throw new AuthError('INVALID_INPUT', 'rules must be an array')
  if (value.length > MAX_RULES) {
    throw new AuthError('INVALID_INPUT', `a key carries at most ${MAX_RULES} rules`)
  }
  const rules = value.map((rule: unknown, i) => {
    const problem = ruleProblem(rule)
    if (problem !== undefined) throw new AuthError('INVALID_INPUT', `rules[${i}] ${problem}`)
    const [glob, permissions] = ruleEntry(rule as Rule)
    return { [glob]: permissions }
  })
  if (countRuleAlternatives(rules.map((rule) => ruleEntry(rule)[0])) > MAX_GLOB_ALTERNATIVES) {
    throw new AuthError(
      'INVALID_INPUT',
      `rules: the brace sets ({a,b}, {1..9}) of a key's rules may expand to at most ${MAX_GLOB_ALTERNATIVES} patterns together`,
    )
  }
  return rules
}
