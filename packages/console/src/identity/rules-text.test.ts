import { describe, expect, it } from 'vitest'
import { formatRules, parseRules } from './rules-text'

describe('parseRules', () => {
  it('reads one rule a line, in order, skipping blank lines', () => {
    expect(parseRules('/docs/** -r--l---\n\n  /tmp/* crudlify  ')).toEqual({
      rules: [{ '/docs/**': '-r--l---' }, { '/tmp/*': 'crudlify' }],
    })
  })

  it('reads no text as no rules', () => {
    expect(parseRules('  \n')).toEqual({ rules: [] })
  })

  it('refuses a relative glob, wrong flags and a missing part, naming the line', () => {
    expect(parseRules('docs/** -r--l---')).toEqual({
      error: 'Rule line 1: the path glob must start with /',
    })
    expect(parseRules('/a/** -r--l---\n/b rx')).toEqual({
      error: 'Rule line 2: flags must be 8 characters of crudlify, each its letter or -',
    })
    expect(parseRules('/docs/**')).toMatchObject({ error: expect.stringMatching(/^Rule line 1:/) })
  })
})

describe('formatRules', () => {
  it('joins rules and names the empty list', () => {
    expect(formatRules([{ '/docs/**': '-r--l---' }, { '/x': '--------' }])).toBe(
      '/docs/** -r--l---, /x --------',
    )
    expect(formatRules([])).toBe('no restriction')
  })
})
