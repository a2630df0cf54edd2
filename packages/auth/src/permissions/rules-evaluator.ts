import { MAX_GLOB_ALTERNATIVES, countRuleAlternatives } from './glob-alternatives'
import { compilePathGlob, normalizeTargetPath } from './path-glob'
import type { PathGlob } from './path-glob'
import {
  FULL_MASK,
  TRAVERSE_MASK,
  permissionMask,
  permissionString,
  FULL_PERMISSIONS,
} from './permission-flags'
import { ruleEntry, ruleProblem } from './rule'
import type { Rule } from './rule'

/**
 * Applies an API key's rules to a path, following the spec's rules of evaluation:
 * top to bottom, the first matching glob decides (1); no match denies (2); an empty list
 * changes nothing (3); the result never exceeds the holder's own permissions (4); the proper
 * ancestors of the paths a granting rule can match get read and list only (6).
 */
export interface RulesEvaluator {
  /** The rules, in order. */
  readonly rules: readonly Rule[]
  /** True when the rules restrict anything (the list is not empty). */
  readonly scoped: boolean
  /**
   * The permission string the key grants on `path`, given the holder's own permissions there
   * (`crudlify` when omitted, as for root and share keys).
   *
   * @example
   * const rules = createRulesEvaluator([{ '/docs/**': '-r--l---' }])
   * rules.evaluate('/docs/a.txt')     // '-r--l---'
   * rules.evaluate('/')               // '-r--l---' (an ancestor)
   * rules.evaluate('/other')          // '--------'
   */
  evaluate(path: string, ownPermissions?: string): string
}

/** The evaluator with the bit-mask entry point used inside the library. */
export interface CompiledRules extends RulesEvaluator {
  /** As `evaluate`, on a normalised path and permission masks. */
  evaluateMask(path: string, ownMask: number): number
  /** True when every path strictly below `path` meets the same rules (see `Access.permissionsBelow`). */
  uniformBelow(path: string): boolean
  /** Roughly how many bytes the compiled rules hold, for caches that bound their memory. */
  readonly bytes: number
  /**
   * Why these rules deny everything although they were stored (brace sets expanding beyond
   * the limit, from before it existed); undefined for rules that work as written.
   */
  readonly refusal: string | undefined
}

interface CompiledRule {
  glob: PathGlob
  mask: number
}

// Measured with minimatch 11: about 4 KB per compiled glob, plus about 0.5 KB and 32 bytes
// per pattern character for each brace alternative.
const GLOB_BYTES = 4096
const ALTERNATIVE_BYTES = 512
const CHARACTER_BYTES = 32

/**
 * Compiles `rules` once, for evaluating many paths. Rules whose brace sets expand to more
 * than `MAX_GLOB_ALTERNATIVES` patterns together (stored before that limit) are not
 * expanded: they deny every path, and `refusal` says why. Leaving out only the offending
 * rule would let a later, broader rule grant what it was written to deny.
 *
 * @throws {TypeError} when a rule is malformed; validate untrusted input with `parseRules`.
 */
export function createRulesEvaluator(rules: readonly Rule[]): CompiledRules {
  const entries = rules.map((rule, i) => {
    const problem = ruleProblem(rule)
    if (problem !== undefined) throw new TypeError(`rules[${i}] ${problem}`)
    return ruleEntry(rule)
  })
  let compiled: CompiledRule[]
  try {
    if (countRuleAlternatives(entries.map(([glob]) => glob)) > MAX_GLOB_ALTERNATIVES) {
      throw new RangeError('too many alternatives')
    }
    compiled = entries.map(([glob, permissions]) => ({
      glob: compilePathGlob(glob),
      mask: permissionMask(permissions),
    }))
  } catch (err) {
    if (!(err instanceof RangeError)) throw err
    return createDenyingEvaluator(
      rules,
      `the brace sets of these rules expand to more than ${MAX_GLOB_ALTERNATIVES} patterns`,
    )
  }
  const bytes = entries.reduce((sum, [glob]) => {
    const alternatives = Math.max(1, countRuleAlternatives([glob]))
    return sum + GLOB_BYTES + alternatives * (ALTERNATIVE_BYTES + CHARACTER_BYTES * glob.length)
  }, 256)
  // Only rules that grant something open a way through their ancestors.
  const granting = compiled.filter((rule) => rule.mask !== 0)
  const evaluateMask = (path: string, ownMask: number): number => {
    if (compiled.length === 0) return ownMask
    for (const rule of compiled) if (rule.glob.matches(path)) return rule.mask & ownMask
    for (const rule of granting) if (rule.glob.leadsTo(path)) return TRAVERSE_MASK & ownMask
    return 0
  }
  return {
    rules,
    scoped: compiled.length > 0,
    bytes,
    refusal: undefined,
    evaluateMask,
    uniformBelow: (path) =>
      compiled.every(({ glob }) => !glob.leadsTo(path) || glob.coversBelow(path)),
    evaluate: (path, ownPermissions = FULL_PERMISSIONS) =>
      permissionString(
        evaluateMask(
          normalizeTargetPath(path),
          ownPermissions === FULL_PERMISSIONS ? FULL_MASK : permissionMask(ownPermissions),
        ),
      ),
  }
}

/** Rules that deny every path, for stored rules that cannot be compiled, saying why. */
export function createDenyingEvaluator(rules: readonly Rule[], refusal: string): CompiledRules {
  return {
    rules,
    scoped: true,
    bytes: 256,
    refusal,
    evaluateMask: () => 0,
    // Everything is denied alike.
    uniformBelow: () => true,
    evaluate: () => permissionString(0),
  }
}
