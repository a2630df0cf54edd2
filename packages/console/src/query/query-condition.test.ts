import { describe, expect, it } from 'vitest'
import type { FieldType } from './index-config'
import { buildWhere, operatorsFor } from './query-condition'

const types: Record<string, FieldType> = {
  '/status': 'string',
  '/n': 'number',
  '/done': 'boolean',
  '@updated_at': 'timestamp',
}
const typeOf = (field: string) => types[field]

describe('query condition', () => {
  it('builds one comparison, reading the value as the field’s type', () => {
    expect(buildWhere([{ field: '/n', operator: 'gte', value: ' 2.5 ' }], 'all', typeOf)).toEqual({
      where: { field: '/n', op: 'gte', value: 2.5 },
    })
    expect(buildWhere([{ field: '/done', operator: 'eq', value: 'true' }], 'all', typeOf)).toEqual({
      where: { field: '/done', op: 'eq', value: true },
    })
    expect(
      buildWhere(
        [{ field: '@updated_at', operator: 'lt', value: '1970-01-01T00:00:01Z' }],
        'all',
        typeOf,
      ),
    ).toEqual({ where: { field: '@updated_at', op: 'lt', value: 1000 } })
    // A string is taken as typed: spaces may matter.
    expect(buildWhere([{ field: '/status', operator: 'eq', value: ' a ' }], 'all', typeOf)).toEqual(
      { where: { field: '/status', op: 'eq', value: ' a ' } },
    )
  })

  it('joins rows with and or or, and gives no condition for no rows', () => {
    const rows = [
      { field: '/status', operator: 'prefix', value: 'op' },
      { field: '/n', operator: 'in', value: '1, 2,,3' },
    ]
    const [first, second] = [
      { field: '/status', op: 'prefix', value: 'op' },
      { field: '/n', op: 'in', value: [1, 2, 3] },
    ]
    expect(buildWhere(rows, 'all', typeOf)).toEqual({ where: { and: [first, second] } })
    expect(buildWhere(rows, 'any', typeOf)).toEqual({ where: { or: [first, second] } })
    expect(buildWhere([], 'all', typeOf)).toEqual({ where: undefined })
  })

  it('asks exists either way, without a value', () => {
    expect(buildWhere([{ field: '/n', operator: 'missing', value: 'x' }], 'all', typeOf)).toEqual({
      where: { field: '/n', op: 'exists', value: false },
    })
    expect(buildWhere([{ field: '/n', operator: 'exists', value: '' }], 'all', typeOf)).toEqual({
      where: { field: '/n', op: 'exists', value: true },
    })
  })

  it('says what is wrong with a value', () => {
    const problem = (field: string, operator: string, value: string) =>
      buildWhere([{ field, operator, value }], 'all', typeOf).problem
    expect(problem('/n', 'eq', 'ten')).toMatch(/\/n takes a number/)
    expect(problem('/n', 'eq', '')).toMatch(/number/)
    expect(problem('/done', 'eq', 'yes')).toMatch(/true or false/)
    expect(problem('@updated_at', 'gt', 'someday')).toMatch(/date/)
    expect(problem('/status', 'in', ' , ')).toMatch(/one or more values/)
    expect(problem('/unknown', 'eq', '1')).toMatch(/Choose a field/)
  })

  it('offers prefix for strings only, and no ordering for booleans', () => {
    expect(operatorsFor('string').map((o) => o.id)).toContain('prefix')
    expect(operatorsFor('number').map((o) => o.id)).not.toContain('prefix')
    expect(operatorsFor('boolean').map((o) => o.id)).toEqual(['eq', 'neq', 'exists', 'missing'])
  })
})
