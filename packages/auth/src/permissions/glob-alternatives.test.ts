import fc from 'fast-check'
import { braceExpand } from 'minimatch'
import { describe, expect, it } from 'vitest'
import {
  MAX_GLOB_ALTERNATIVES,
  countGlobAlternatives,
  countRuleAlternatives,
} from './glob-alternatives'

describe('glob alternatives', () => {
  it.each([
    ['/docs/**', 1],
    ['/{a,b}', 2],
    ['/{a,b}/{c,d,e}', 6],
    ['/{a,{b,c}}', 3],
    ['/{a{b,c}}', 2],
    ['/{,x}', 2],
    ['/{1..20}', 20],
    ['/{20..1}', 20],
    ['/{1..10..3}', 4],
    ['/{a..e}', 5],
    ['/{01..05}', 5],
    ['/{a}', 1],
    ['/{}', 1],
    ['/\\{a,b\\}', 1],
    ['/{a,b', 1],
    ['/a,b}', 1],
  ])('counts %s as %i', (pattern, count) => {
    expect(countGlobAlternatives(pattern)).toBe(count)
  })

  it('stops one past the limit instead of multiplying on', () => {
    expect(countGlobAlternatives('/{1..20}{1..20}{1..20}')).toBe(MAX_GLOB_ALTERNATIVES + 1)
    expect(countGlobAlternatives(`/${'{a,b}'.repeat(170)}`)).toBe(MAX_GLOB_ALTERNATIVES + 1)
    expect(countGlobAlternatives('/{1..99999999999999999999999}', 10)).toBe(11)
    expect(countGlobAlternatives('/{1..20}{1..20}{1..20}', 10_000)).toBe(8000)
  })

  it('counts deeply nested and long patterns without expanding them', () => {
    const nested = `/${'{a,'.repeat(300)}b${'}'.repeat(300)}`
    expect(countGlobAlternatives(nested, 1000)).toBe(301)
    const bomb = `/${'{1..9}'.repeat(146)}`
    expect(countGlobAlternatives(bomb)).toBe(MAX_GLOB_ALTERNATIVES + 1)
  })

  it('sums the globs of a key that have braces; plain globs add nothing', () => {
    expect(countRuleAlternatives(['/a', '/b/**'])).toBe(0)
    expect(countRuleAlternatives(['/a', '/{a,b}', '/{1..3}'])).toBe(5)
    expect(countRuleAlternatives(Array.from({ length: 33 }, () => '/{a,b}'))).toBe(65)
  })
})

// Well-formed brace patterns: literals, comma sets and numeric sequences, nested.
const literal = fc.constantFrom('a', 'b', 'x/', '*', '.')
const patternArb: fc.Arbitrary<string> = fc.letrec<{ glob: string; part: string }>((tie) => ({
  glob: fc.array(tie('part'), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')),
  part: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal,
    fc.array(tie('glob'), { minLength: 2, maxLength: 3 }).map((m) => `{${m.join(',')}}`),
    fc.tuple(fc.nat(12), fc.nat(12)).map(([a, b]) => `{${a}..${b}}`),
  ),
})).glob

describe('glob alternatives properties', () => {
  it('agree with minimatch’s expansion, up to the limit', () => {
    fc.assert(
      fc.property(patternArb, (body) => {
        const pattern = `/${body}`
        const expanded = braceExpand(pattern, { braceExpandMax: 1001 }).length
        expect(countGlobAlternatives(pattern, 1000)).toBe(Math.min(expanded, 1001))
      }),
    )
  })
})
