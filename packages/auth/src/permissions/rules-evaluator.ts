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
}

interface CompiledRule {
  glob: PathGlob
  mask: number
}

/**
 * Compiles `rules` once, for evaluating many paths.
 *
 * @throws {TypeError} when a rule is malformed; validate untrusted input with `parseRules`.
 */
export function createRulesEvaluator(rules: readonly Rule[]): CompiledRules {
  const compiled: CompiledRule[] = rules.map((rule, i) => {
    const problem = ruleProblem(rule)
    if (problem !== undefined) throw new TypeError(`rules[${i}] ${problem}`)
    const [glob, permissions] = ruleEntry(rule)
    return { glob: compilePathGlob(glob), mask: permissionMask(permissions) }
  })
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
