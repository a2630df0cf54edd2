import fc from 'fast-check'
import { braceExpand } from 'minimatch'
import { describe, expect, it } from 'vitest'
import { countGlobAlternatives } from './glob-limits'

/** What minimatch really makes of a glob, expanded in full. */
const expanded = (glob: string) => braceExpand(glob, { braceExpandMax: 1_000_000 }).length

describe('countGlobAlternatives', () => {
  it.each([
    ['*.json', 1],
    ['{a,b}', 2],
    ['{a,b,c}/*.{json,txt}', 6],
    ['{a,{b,c}}', 3],
    ['{{a,b}}', 2],
    ['{1..20}', 20],
    ['{20..1}', 20],
    ['{-5..5..2}', 6],
    ['{01..10}', 10],
    ['{a..z}', 26],
    ['{a..e..2}', 3],
    ['{1..20}{1..20}{1..20}*', 8000],
    ['{a}', 1],
    ['{}', 1],
    ['\\{a,b\\}', 1],
    ['{a\\,b}', 1],
    ['{1\\.\\.9}', 1],
  ])('counts %s as %i', (glob, count) => {
    expect(countGlobAlternatives(glob)).toBe(count)
    expect(expanded(glob)).toBe(count)
  })

  it('counts a brace bomb at once, without expanding it', () => {
    expect(countGlobAlternatives('{a,b}'.repeat(40))).toBe(2 ** 40)
    expect(countGlobAlternatives('{1..99999999999}{1..99999999999}')).toBeGreaterThan(1e20)
    expect(countGlobAlternatives(`${'{'.repeat(5000)}a,b${'}'.repeat(5000)}`)).toBe(2)
  })

  it('bounds globs with stray braces by their commas', () => {
    expect(countGlobAlternatives('{a},b}')).toBeGreaterThanOrEqual(expanded('{a},b}'))
    expect(countGlobAlternatives('{a,b')).toBe(2)
    expect(countGlobAlternatives('a}b')).toBe(1)
  })

  it('never counts fewer patterns than minimatch makes (random brace soup)', () => {
    const soup = fc.string({
      unit: fc.constantFrom('{', '}', ',', 'a', 'b', '.', '..', '1', '2', '-', '\\', '$', '*'),
      maxLength: 24,
    })
    fc.assert(
      fc.property(soup, (glob) => {
        expect(countGlobAlternatives(glob)).toBeGreaterThanOrEqual(expanded(glob))
      }),
      { numRuns: 5000 },
    )
  })

  it('counts well-formed brace trees exactly', () => {
    const { tree } = fc.letrec<{ tree: string; group: string; word: string }>((tie) => ({
      word: fc.string({ unit: fc.constantFrom('a', 'b', 'x'), minLength: 1, maxLength: 3 }),
      group: fc.oneof(
        fc
          .array(tie('tree'), { minLength: 2, maxLength: 4 })
          .map((members) => `{${members.join(',')}}`),
        fc
          .tuple(fc.integer({ min: -30, max: 30 }), fc.integer({ min: -30, max: 30 }))
          .map(([a, b]) => `{${a}..${b}}`),
      ),
      tree: fc
        .array(fc.oneof({ depthSize: 'small' }, tie('word'), tie('group')), {
          minLength: 1,
          maxLength: 3,
        })
        .map((parts) => parts.join('')),
    }))
    fc.assert(
      fc.property(tree, (glob) => {
        const count = countGlobAlternatives(glob)
        if (count <= 5000) expect(count).toBe(expanded(glob))
      }),
      { numRuns: 2000 },
    )
  })
})
