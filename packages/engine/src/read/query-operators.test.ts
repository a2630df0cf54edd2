import { QUERY_OPERATORS as WIRE_OPERATORS } from '@svcdb/contract'
import type { QueryCondition } from '@svcdb/contract'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { QUERY_OPERATORS } from './query-types'
import type { Condition } from './query-types'

// The contract keeps a copy of the operators so browsers can validate a query without the
// engine (layer-0 packages import no other); this test is what keeps it a faithful copy.
describe('query operators', () => {
  it('are the same on the wire as in the engine, in the same order', () => {
    expect([...WIRE_OPERATORS]).toEqual([...QUERY_OPERATORS])
  })

  it('make the same condition type on the wire as in the engine', () => {
    expectTypeOf<QueryCondition>().toEqualTypeOf<Condition>()
  })
})
