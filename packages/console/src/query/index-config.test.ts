import { describe, expect, it } from 'vitest'
import { queryFields, readIndexConfig } from './index-config'

describe('index config', () => {
  it('reads the glob and the indexes, the glob defaulting to *', () => {
    expect(
      readIndexConfig('{"glob":"*.json","indexes":[{"field":"/status","type":"string"}]}'),
    ).toEqual({ glob: '*.json', indexes: [{ field: '/status', type: 'string' }] })
    expect(readIndexConfig('{"indexes":[]}')).toEqual({ glob: '*', indexes: [] })
  })

  it('refuses what it cannot show, saying why', () => {
    expect(() => readIndexConfig('{')).toThrow(/not JSON/)
    expect(() => readIndexConfig('[]')).toThrow(/not a JSON object/)
    expect(() => readIndexConfig('{"glob":"*"}')).toThrow(/no "indexes"/)
    expect(() => readIndexConfig('{"indexes":[{"field":"/a","type":"date"}]}')).toThrow(/Index 1/)
  })

  it('offers the indexed fields first, then the virtual fields not indexed', () => {
    const fields = queryFields({
      glob: '*',
      indexes: [
        { field: '/n', type: 'number' },
        { field: '@size', type: 'number' },
      ],
    })
    expect(fields.slice(0, 2)).toEqual([
      { field: '/n', type: 'number', indexed: true },
      { field: '@size', type: 'number', indexed: true },
    ])
    expect(fields.filter((f) => f.field === '@size')).toHaveLength(1)
    expect(fields.find((f) => f.field === '@updated_at')).toEqual({
      field: '@updated_at',
      type: 'timestamp',
      indexed: false,
    })
  })
})
