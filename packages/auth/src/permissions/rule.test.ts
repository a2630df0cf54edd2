import { describe, expect, it } from 'vitest'
import { isAuthError } from '../errors'
import { parseRules } from './rule'

const problem = (value: unknown) => {
  try {
    parseRules(value)
    return undefined
  } catch (err) {
    expect(isAuthError(err, 'INVALID_INPUT')).toBe(true)
    return (err as Error).message
  }
}

describe('rule', () => {
  it('accepts well-formed rules and copies them', () => {
    const input = [{ '/docs/**': '-r--l---' }, { '/**': '--------' }]
    const rules = parseRules(input)
    expect(rules).toEqual(input)
    expect(rules[0]).not.toBe(input[0])
    expect(parseRules([])).toEqual([])
  })

  it('refuses malformed rules, naming the first one', () => {
    expect(problem('x')).toBe('rules must be an array')
    expect(problem([{ '/a': 'crudlify' }, 'x'])).toMatch(/^rules\[1\] must be an object/)
    expect(problem([{}])).toMatch(/exactly one entry/)
    expect(problem([{ '/a': 'crudlify', '/b': 'crudlify' }])).toMatch(/exactly one entry/)
    expect(problem([{ 'a/**': 'crudlify' }])).toMatch(/absolute path pattern/)
    expect(problem([{ '/a': 'crud' }])).toMatch(/8 characters/)
    expect(problem([{ '/a': 'rcudlify' }])).toMatch(/8 characters/)
    expect(problem([{ '/a': 7 }])).toMatch(/8 characters/)
    expect(problem(Array.from({ length: 1001 }, () => ({ '/a': 'crudlify' })))).toMatch(/at most/)
  })

  it('refuses brace sets expanding to more than 64 patterns, counting every rule', () => {
    const bomb = Array.from({ length: 100 }, () => ({ '/{1..20}{1..20}{1..20}': '-r--l---' }))
    expect(problem(bomb)).toMatch(/^rules: .* at most 64 patterns/)
    expect(problem([{ '/{1..65}': '-r--l---' }])).toMatch(/at most 64/)
    const pairs = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ [`/{a,b}${i}`]: 'crudlify' }))
    expect(problem(pairs(32))).toBeUndefined()
    expect(problem(pairs(33))).toMatch(/at most 64/)
    const plain = Array.from({ length: 1000 }, (_, i) => ({ [`/p${i}`]: 'crudlify' }))
    expect(problem([...plain.slice(0, 999), { '/{1..64}': 'crudlify' }])).toBeUndefined()
  })
})
