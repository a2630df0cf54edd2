import type { MetaOp } from '@svcdb/engine'
import { keyBytes } from './kv-keys'

/** A batch as the arrays of the write statement: rows to delete, rows to upsert. */
export interface BatchRows {
  readonly delSpaces: string[]
  readonly delKeys: Buffer[]
  readonly putSpaces: string[]
  readonly putKeys: Buffer[]
  readonly putValues: Uint8Array[]
}

interface Row {
  space: string
  key: Buffer
  value: Uint8Array | undefined
}

/**
 * The last op on each key of `ops` (an upsert may not touch a row twice in one statement),
 * sorted by space and key: concurrent batches then lock shared rows in one order, which
 * keeps them from deadlocking each other.
 */
export function batchRows(ops: readonly MetaOp[]): BatchRows {
  const last = new Map<string, Row>()
  for (const op of ops) {
    const key = keyBytes(op.key)
    // latin1 maps each byte to one character: a unique, cheap map key.
    last.set(`${op.space}\u0000${key.toString('latin1')}`, {
      space: op.space,
      key,
      value: op.type === 'put' ? op.value : undefined,
    })
  }
  const rows = [...last.values()].sort(
    (a, b) => (a.space < b.space ? -1 : a.space > b.space ? 1 : 0) || Buffer.compare(a.key, b.key),
  )
  const out: BatchRows = { delSpaces: [], delKeys: [], putSpaces: [], putKeys: [], putValues: [] }
  for (const row of rows) {
    if (row.value === undefined) {
      out.delSpaces.push(row.space)
      out.delKeys.push(row.key)
    } else {
      out.putSpaces.push(row.space)
      out.putKeys.push(row.key)
      out.putValues.push(row.value)
    }
  }
  return out
}
