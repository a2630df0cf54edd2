import { describe, expect, it } from 'vitest'
import type { JournalRecord } from './crash-journal'
import { judgeRestart, replayJournal } from './expected-state'
import type { InFlight, ReadBack } from './expected-state'

const journal: JournalRecord[] = [
  { kind: 'write', path: '/a', sha256: 'a1', size: 1, etag: 'e' },
  { kind: 'write', path: '/b', sha256: 'b1', size: 1, etag: 'e' },
  { kind: 'snapshot', name: 's', version: 'v' },
  { kind: 'write', path: '/a', sha256: 'a2', size: 1, etag: 'e' },
  { kind: 'delete', path: '/b' },
  { kind: 'write', path: '/c', sha256: 'c1', size: 1, etag: 'e' },
]
const known = new Map([
  ['/a', new Set(['a1', 'a2', 'a3'])],
  ['/b', new Set(['b1'])],
  ['/c', new Set(['c1'])],
])
const judge = (actual: Record<string, ReadBack>, inFlight: InFlight[] = []) =>
  judgeRestart(replayJournal(journal), inFlight, new Map(Object.entries(actual)), known)

describe('judgeRestart', () => {
  it('accepts the acknowledged state', () => {
    expect(judge({ '/a': 'a2', '/c': 'c1' })).toMatchObject({ lost: [], torn: [], resurrected: [] })
  })

  it('counts a missing file or an older content as lost', () => {
    expect(judge({ '/a': 'a1' }).lost).toEqual(['/a', '/c'])
  })

  it('counts content never sent, or unreadable, as torn', () => {
    expect(judge({ '/a': 'partial', '/c': 'unreadable' }).torn).toEqual(['/a', '/c'])
  })

  it('counts a deleted file back as resurrected', () => {
    expect(judge({ '/a': 'a2', '/b': 'b1', '/c': 'c1' }).resurrected).toEqual(['/b'])
  })

  it('accepts either outcome of an operation in flight, and settles it as read back', () => {
    const inFlight: InFlight[] = [
      { kind: 'write', path: '/a', sha256: 'a3' },
      { kind: 'delete', path: '/c' },
    ]
    const landed = judge({ '/a': 'a3' }, inFlight)
    expect(landed).toMatchObject({ lost: [], torn: [], resurrected: [] })
    expect(landed.settle).toEqual([
      { kind: 'observed', path: '/a', sha256: 'a3' },
      { kind: 'observed', path: '/c', sha256: null },
    ])
    expect(judge({ '/a': 'a2', '/c': 'c1' }, inFlight).settle).toEqual([])
  })

  it('accepts a promote in flight only as the whole snapshot or nothing', () => {
    const inFlight: InFlight[] = [{ kind: 'promote', name: 's' }]
    expect(judge({ '/a': 'a1', '/b': 'b1' }, inFlight).lost).toEqual([])
    // Half a promote: /a moved back, /b not restored, /c kept.
    const half = judge({ '/a': 'a1', '/c': 'c1' }, inFlight)
    expect(half.lost.length + half.resurrected.length).toBeGreaterThan(0)
  })
})
