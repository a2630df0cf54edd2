import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { readQuerySchema } from './files'
import { countGlobAlternatives, MAX_GLOB_ALTERNATIVES, MAX_GLOB_LENGTH } from './glob-limits'

describe('countGlobAlternatives', () => {
  it.each([
    ['*.json', 1],
    ['{a,b,c}/*.{json,txt}', 6],
    ['{a,{b,c}}', 3],
    ['{1..20}', 20],
    ['{a..z..2}', 13],
    ['{1..20}{1..20}{1..20}*', 8000],
    ['\\{a,b\\}', 1],
    ['{a,b', 2],
  ])('counts %s as %i', (glob, count) => {
    expect(countGlobAlternatives(glob)).toBe(count)
  })

  it('answers a brace bomb at once, without expanding it', () => {
    expect(countGlobAlternatives('{a,b}'.repeat(12))).toBe(4096)
    expect(countGlobAlternatives('{1..99999999999}')).toBe(99999999999)
  })
})

describe('the listing glob of GET /files/{path}', () => {
  const parse = (glob: string) => v.safeParse(readQuerySchema, { glob })

  it('accepts globs within the limits', () => {
    expect(parse('**/*.{json,txt}').success).toBe(true)
    expect(
      parse(`{${Array.from({ length: MAX_GLOB_ALTERNATIVES }, (_, i) => i).join(',')}}`).success,
    ).toBe(true)
    expect(parse('x'.repeat(MAX_GLOB_LENGTH)).success).toBe(true)
  })

  it('refuses a glob with too many brace alternatives, naming the limit', () => {
    const result = parse('{1..20}{1..20}{1..20}*')
    expect(result.success).toBe(false)
    expect(result.issues?.[0]?.message).toMatch(/at most 64 patterns/)
    expect(parse('{a,b}'.repeat(7)).success).toBe(false)
  })

  it('refuses an overlong glob', () => {
    const result = parse('*'.repeat(MAX_GLOB_LENGTH + 1))
    expect(result.success).toBe(false)
    expect(result.issues?.[0]?.message).toMatch(/at most 256 characters/)
  })
})
