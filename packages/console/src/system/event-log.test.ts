import { describe, expect, it } from 'vitest'
import { eventSummary, prependEvent } from './event-log'

const event = (event_type: string, payload: unknown) => ({
  event_id: '1-1',
  event_type,
  timestamp: 0,
  payload,
})

describe('prependEvent', () => {
  it('puts the newest first and keeps at most the limit', () => {
    let log: number[] = []
    for (let n = 1; n <= 5; n++) log = prependEvent(log, n, 3)
    expect(log).toEqual([5, 4, 3])
  })
})

describe('eventSummary', () => {
  it('names the paths of a batch, cutting long ones', () => {
    const entries = ['/a', '/b', '/c', '/d', '/e'].map((path) => ({ path }))
    expect(eventSummary(event('entries_created', { entries: entries.slice(0, 2) }))).toBe('/a, /b')
    expect(eventSummary(event('entries_deleted', { entries }))).toBe('/a, /b, /c and 2 more')
  })

  it('names single paths, versions and other events', () => {
    expect(eventSummary(event('indexes_changed', { path: '/x' }))).toBe('/x')
    expect(eventSummary(event('versions_created', { kind: 'snapshot', name: 'v1' }))).toBe(
      'snapshot v1',
    )
    expect(eventSummary(event('events_lost', { reason: 'expired' }))).toBe('lost events (expired)')
    expect(eventSummary(event('metrics', { counts: {} }))).toBe('statistics')
    expect(eventSummary(event('heartbeat', { node_id: 1 }))).toBe('alive')
    expect(eventSummary(event('heartbeat', null))).toBe('')
  })
})
