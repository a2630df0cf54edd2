import * as contract from '@svcdb/contract'
import * as engine from '@svcdb/engine'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

// The contract refuses a listing glob with 400 before the engine sees it, and the engine
// refuses it again for embedders; both must draw the line at the same place.
describe('glob limits of the contract and the engine', () => {
  it('are the same numbers', () => {
    expect(contract.MAX_GLOB_LENGTH).toBe(engine.MAX_GLOB_LENGTH)
    expect(contract.MAX_GLOB_ALTERNATIVES).toBe(engine.MAX_GLOB_ALTERNATIVES)
  })

  it('count brace alternatives alike', () => {
    const glob = fc.string({
      unit: fc.constantFrom('{', '}', ',', 'a', '.', '..', '1', '9', '-', '\\', '$', '*', '/'),
      maxLength: 40,
    })
    fc.assert(
      fc.property(glob, (g) => {
        expect(contract.countGlobAlternatives(g)).toBe(engine.countGlobAlternatives(g))
      }),
      { numRuns: 3000 },
    )
  })
})
