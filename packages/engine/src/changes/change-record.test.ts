import { describe, expect, it } from 'vitest'
import { changeRecordKey } from '../meta/keys'
import type { MetaOp } from '../meta/meta-store'
import { parseChangeRecord, recordChanges, trimmedRecordOps } from './change-record'
import type { DatabaseChange } from './database-change'

const move = (ref: string) => ({ ref })
type Written = Extract<DatabaseChange, { type: 'entries_created' }>
const written = (path: string, fork?: string): Written => ({
  type: 'entries_created',
  at: 5,
  fork,
  version: fork ?? 'head',
  entries: [{ path, entryType: 'file' }],
})
const text = (op: MetaOp | undefined) =>
  op?.type === 'put' ? new TextDecoder().decode(op.value) : undefined

describe('change records', () => {
  it('record one list per move, in sequence order, read back as the group reports them', () => {
    const extra = { ...written('/x'), entries: [{ path: '/x', entryType: 'file', change: 'c' }] }
    const snapshot: DatabaseChange = {
      type: 'version_created',
      at: 5,
      fork: undefined,
      version: 'v',
      kind: 'snapshot',
      name: 's',
      metadata: { by: 'me' },
    }
    const group = recordChanges(
      [extra as DatabaseChange, written('/f', 'f'), written('/y'), snapshot],
      [move('HEAD'), move('fork/f'), move('snap/s'), move('HEAD')],
      7,
    )
    // HEAD's changes take the sequence of its last move (10); its first move (7) holds none.
    expect(group.ops.map((op) => op.key)).toEqual([7, 8, 9, 10].map(changeRecordKey))
    expect(text(group.ops[0])).toBe('{"changes":[]}')
    expect(
      group.changes.map((c) => `${c.seq} ${'entries' in c ? c.entries[0]?.path : c.type}`),
    ).toEqual(['8 /f', '9 version_created', '10 /x', '10 /y'])
    expect(group.diffed).toEqual([])
    // Only a change's own fields, so every node reports the same objects.
    expect(group.changes[2]).toEqual({ ...written('/x'), seq: 10 })
    const stored = group.ops.flatMap((op) => (op.type === 'put' ? [op.value] : []))
    expect(stored.map(parseChangeRecord).flat()).toEqual(
      group.changes.map(({ seq: _seq, ...change }) => change),
    )
  })

  it('record a marker past the limit of entries, and say which sequences to diff', () => {
    const many: DatabaseChange = {
      ...written('/a'),
      entries: Array.from({ length: 5 }, (_, i) => ({ path: `/a${i}`, entryType: 'file' })),
    }
    const group = recordChanges([many, written('/f', 'f')], [move('HEAD'), move('fork/f')], 1, 4)
    expect(text(group.ops[0])).toBe('{"entries":5}')
    expect(group.diffed).toEqual([1])
    // The group's own changes still, for a node that does not diff (embedded).
    expect(group.changes.map((c) => c.seq)).toEqual([1, 2])
    expect(
      parseChangeRecord(group.ops[0]?.type === 'put' ? group.ops[0].value : new Uint8Array()),
    ).toBeUndefined()
    for (const bad of ['', '{', '{"changes":[{"type":"x"}]}', '{"changes":7}'])
      expect(parseChangeRecord(new TextEncoder().encode(bad))).toBeUndefined()
  })

  it('record nothing for a group without moves, and trim with the version log', () => {
    const group = recordChanges([written('/a')], [], 4)
    expect(group.ops).toEqual([])
    expect(group.changes.map((c) => c.seq)).toEqual([3])
    const trimmed = trimmedRecordOps([
      { type: 'del', space: 'log', key: '0000000000000002' },
      { type: 'del', space: 'headlog', key: '0000000000000003' },
      { type: 'put', space: 'log', key: '0000000000000004', value: new Uint8Array() },
    ])
    expect(trimmed).toEqual([{ type: 'del', space: 'meta', key: changeRecordKey(2) }])
  })
})
