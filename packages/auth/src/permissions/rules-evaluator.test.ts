import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countRuleAlternatives } from './glob-alternatives'
import { compilePathGlob } from './path-glob'
import { permissionMask, permissionString } from './permission-flags'
import type { Rule } from './rule'
import { createRulesEvaluator } from './rules-evaluator'

describe('rules evaluator', () => {
  it('lets the first matching rule decide', () => {
    const rules = createRulesEvaluator([
      { '/docs/private/**': '--------' },
      { '/docs/**': '-r--l---' },
      { '/**': 'crudlify' },
    ])
    expect(rules.evaluate('/docs/private/a.txt')).toBe('--------')
    expect(rules.evaluate('/docs/a.txt')).toBe('-r--l---')
    expect(rules.evaluate('/src/a.ts')).toBe('crudlify')
  })

  it('denies a path no rule matches', () => {
    const rules = createRulesEvaluator([{ '/docs/*.txt': 'crudlify' }])
    expect(rules.evaluate('/docs/a.md')).toBe('--------')
    expect(rules.evaluate('/docs/sub/a.txt')).toBe('--------')
    expect(rules.evaluate('/other')).toBe('--------')
  })

  it('changes nothing when the list is empty', () => {
    const rules = createRulesEvaluator([])
    expect(rules.scoped).toBe(false)
    expect(rules.evaluate('/anything', 'cr--l---')).toBe('cr--l---')
  })

  it('never grants more than the holder has', () => {
    const rules = createRulesEvaluator([{ '/**': 'crudlify' }])
    expect(rules.evaluate('/a', '-r--l---')).toBe('-r--l---')
  })

  it('gives the ancestors of scoped paths read and list only, and nothing to siblings', () => {
    const rules = createRulesEvaluator([{ '/projects/alpha/**': 'crud----' }])
    expect(rules.evaluate('/')).toBe('-r--l---')
    expect(rules.evaluate('/projects')).toBe('-r--l---')
    expect(rules.evaluate('/projects/alpha')).toBe('crud----')
    expect(rules.evaluate('/projects/beta')).toBe('--------')
    expect(rules.evaluate('/projects/beta/x')).toBe('--------')
    expect(rules.evaluate('/projects', '-r------')).toBe('-r------')
  })

  it('opens no ancestors for rules that deny everything', () => {
    const rules = createRulesEvaluator([{ '/secret/**': '--------' }])
    expect(rules.evaluate('/')).toBe('--------')
  })

  it('normalises the path it is given', () => {
    const rules = createRulesEvaluator([{ '/docs/**': '-r--l---' }])
    expect(rules.evaluate('docs//a.txt/')).toBe('-r--l---')
  })

  it('refuses malformed rules as a programming error', () => {
    expect(() => createRulesEvaluator([{ docs: 'crudlify' }])).toThrow(TypeError)
  })

  it('denies everything, without expanding, for stored rules past the brace limit', () => {
    // A deny first: skipping just that rule would let the second one grant /s/111.
    const rules = createRulesEvaluator([
      ...Array.from({ length: 100 }, () => ({ '/s/{1..20}{1..20}{1..20}': '--------' })),
      { '/**': 'crudlify' },
    ])
    expect(rules.refusal).toMatch(/more than 64 patterns/)
    expect(rules.scoped).toBe(true)
    for (const path of ['/', '/s/111', '/other']) expect(rules.evaluate(path)).toBe('--------')
    expect(rules.uniformBelow('/')).toBe(true)
    expect(rules.bytes).toBeLessThan(1024)
  })

  it('estimates the memory its compiled globs hold', () => {
    const one = createRulesEvaluator([{ '/a/**': 'crudlify' }])
    const braces = createRulesEvaluator([{ '/{a,b,c,d}/**': 'crudlify' }])
    const long = createRulesEvaluator([{ [`/${'x'.repeat(1000)}`]: 'crudlify' }])
    expect(one.refusal).toBeUndefined()
    expect(braces.bytes).toBeGreaterThan(one.bytes)
    expect(long.bytes).toBeGreaterThan(30_000)
  })
})

const segment = fc.constantFrom('a', 'b', 'c', '.x')
const pathArb = fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join('/')}`)
const globArb = fc
  .array(fc.constantFrom('a', 'b', 'c', '.x', '*', '**', '{a,b}'), { minLength: 1, maxLength: 4 })
  .map((s) => `/${s.join('/')}`)
const maskArb = fc.integer({ min: 0, max: 255 })
const ruleArb = fc.tuple(globArb, maskArb).map(([g, m]): Rule => ({ [g]: permissionString(m) }))
// At most 32 brace alternatives each, so two lists together stay within the key limit.
const rulesArb = fc
  .array(ruleArb, { maxLength: 6 })
  .filter((rules) => countRuleAlternatives(rules.map((r) => Object.keys(r)[0] ?? '')) <= 32)

const firstMatch = (rules: Rule[], path: string) =>
  rules.findIndex((rule) => compilePathGlob(Object.keys(rule)[0] ?? '').matches(path))

describe('rules evaluator properties', () => {
  it('never grants beyond the holder’s own set', () => {
    fc.assert(
      fc.property(rulesArb, pathArb, maskArb, (rules, path, own) => {
        const got = permissionMask(
          createRulesEvaluator(rules).evaluate(path, permissionString(own)),
        )
        expect(got & ~own).toBe(0)
      }),
    )
  })

  it('changes nothing with an empty list', () => {
    fc.assert(
      fc.property(pathArb, maskArb, (path, own) => {
        const own8 = permissionString(own)
        expect(createRulesEvaluator([]).evaluate(path, own8)).toBe(own8)
      }),
    )
  })

  it('lets the first match decide, whatever follows it', () => {
    fc.assert(
      fc.property(rulesArb, rulesArb, pathArb, maskArb, (rules, other, path, own) => {
        const i = firstMatch(rules, path)
        fc.pre(i >= 0)
        const own8 = permissionString(own)
        const decided = createRulesEvaluator(rules).evaluate(path, own8)
        const [, flags] = Object.entries(rules[i] ?? {})[0] ?? ['', '']
        expect(decided).toBe(permissionString(permissionMask(flags) & own))
        const changedTail = [...rules.slice(0, i + 1), ...other]
        expect(createRulesEvaluator(changedTail).evaluate(path, own8)).toBe(decided)
      }),
    )
  })

  it('denies without a match, except read and list on ancestors of granted paths', () => {
    fc.assert(
      fc.property(rulesArb, pathArb, (rules, path) => {
        fc.pre(rules.length > 0 && firstMatch(rules, path) === -1)
        const got = createRulesEvaluator(rules).evaluate(path)
        const leads = rules.some((rule) => {
          const [glob, flags] = Object.entries(rule)[0] ?? ['', '']
          return flags !== '--------' && compilePathGlob(glob).leadsTo(path)
        })
        expect(got).toBe(leads ? '-r--l---' : '--------')
      }),
    )
  })
})
