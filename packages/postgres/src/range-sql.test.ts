import { describe, expect, it } from 'vitest'
import { rangeQuery } from './range-sql'

describe('rangeQuery', () => {
  it('reads a whole space in key order without bounds', () => {
    expect(rangeQuery('"s".kv', 'obj', {}, true)).toEqual({
      text: 'SELECT key, value FROM "s".kv WHERE space = $1 ORDER BY key ASC',
      values: ['obj'],
    })
  })

  it('applies every bound given, as bytes, with limit and reverse', () => {
    const { text, values } = rangeQuery(
      '"s".kv',
      'sys',
      { gt: 'a', lte: 'é', limit: 5, reverse: true },
      false,
    )
    expect(text).toBe(
      'SELECT key FROM "s".kv WHERE space = $1 AND key > $2 AND key <= $3 ORDER BY key DESC LIMIT $4',
    )
    expect(values.map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : v))).toEqual([
      'sys',
      '61',
      'c3a9',
      5,
    ])
  })
})
