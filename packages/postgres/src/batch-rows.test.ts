import type { MetaOp } from '@svcdb/engine'
import { describe, expect, it } from 'vitest'
import { batchRows } from './batch-rows'

const bytes = (...values: number[]) => new Uint8Array(values)
const hex = (keys: Buffer[]) => keys.map((key) => key.toString('hex'))

describe('batchRows', () => {
  it('keeps only the last op on each key, puts and deletes apart', () => {
    const ops: MetaOp[] = [
      { type: 'put', space: 'meta', key: 'a', value: bytes(1) },
      { type: 'del', space: 'meta', key: 'a' },
      { type: 'del', space: 'obj', key: bytes(2) },
      { type: 'put', space: 'obj', key: bytes(2), value: bytes(3) },
      { type: 'put', space: 'meta', key: 'b', value: bytes(4) },
      { type: 'put', space: 'meta', key: 'b', value: bytes(5) },
    ]
    const rows = batchRows(ops)
    expect(rows.delSpaces).toEqual(['meta'])
    expect(rows.delKeys.map((key) => key.toString('utf8'))).toEqual(['a'])
    expect(rows.putSpaces).toEqual(['meta', 'obj'])
    expect(hex(rows.putKeys)).toEqual(['62', '02'])
    expect(rows.putValues).toEqual([bytes(5), bytes(3)])
  })

  it('keeps the same key in two spaces apart, and text keys as UTF-8 bytes', () => {
    const rows = batchRows([
      { type: 'put', space: 'sys', key: 'é', value: bytes(1) },
      { type: 'put', space: 'log', key: 'é', value: bytes(2) },
    ])
    expect(rows.putSpaces).toEqual(['log', 'sys'])
    expect(hex(rows.putKeys)).toEqual(['c3a9', 'c3a9'])
  })

  it('sorts rows bytewise within a space, whatever order the ops came in', () => {
    const rows = batchRows([
      { type: 'put', space: 'obj', key: bytes(0xff), value: bytes() },
      { type: 'put', space: 'obj', key: bytes(0x00, 0x01), value: bytes() },
      { type: 'put', space: 'obj', key: bytes(0x00), value: bytes() },
      { type: 'put', space: 'obj', key: bytes(0x80), value: bytes() },
    ])
    expect(hex(rows.putKeys)).toEqual(['00', '0001', '80', 'ff'])
  })
})
