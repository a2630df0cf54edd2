import type { HistoryEntryView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { pointName, restoreSource, shortVersion } from './history-point'

const version = 'ab'.repeat(32)
const point = (over: Partial<HistoryEntryView>): HistoryEntryView => ({
  version,
  timestamp: 0,
  change_type: 'modified',
  size: 3,
  content_type: 'text/plain',
  hash: 'cd'.repeat(32),
  ...over,
})

describe('restoreSource', () => {
  it('restores a snapshot by its name and any other point by its version', () => {
    expect(restoreSource(point({ snapshot: 'v1' }))).toEqual({ snapshot: 'v1' })
    expect(restoreSource(point({}))).toEqual({ version })
  })

  it('has nothing to restore from a deletion', () => {
    expect(restoreSource(point({ change_type: 'deleted', hash: null, size: 0 }))).toBeUndefined()
  })
})

describe('pointName and shortVersion', () => {
  it('name a point by its snapshot, or by the first 12 digits of its version', () => {
    expect(shortVersion(version)).toBe('abababababab')
    expect(pointName(point({}))).toBe('version abababababab')
    expect(pointName(point({ snapshot: 'nightly' }))).toBe('snapshot nightly')
  })
})
