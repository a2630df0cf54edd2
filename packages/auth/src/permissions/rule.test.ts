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
})
