import { describe, expect, it } from 'vitest'
import { isEventsError } from './errors'
import { parseEventsParam } from './events-param'

describe('parseEventsParam', () => {
  it('reads a comma-separated list, trimming blanks and duplicates', () => {
    expect(parseEventsParam('entries_created,entries_deleted')).toEqual([
      'entries_created',
      'entries_deleted',
    ])
    expect(parseEventsParam(' metrics , ,heartbeat,metrics')).toEqual(['metrics', 'heartbeat'])
  })

  it('means every type when absent or blank', () => {
    expect(parseEventsParam(undefined)).toBeUndefined()
    expect(parseEventsParam(null)).toBeUndefined()
    expect(parseEventsParam('')).toBeUndefined()
    expect(parseEventsParam(' , ')).toBeUndefined()
  })

  it('refuses an unknown type with INVALID_EVENT_TYPE naming it', () => {
    let caught: unknown
    try {
      parseEventsParam('entries_created,entries_moved')
    } catch (err) {
      caught = err
    }
    expect(isEventsError(caught, 'INVALID_EVENT_TYPE')).toBe(true)
    expect((caught as Error).message).toContain("'entries_moved'")
    expect(() => parseEventsParam('Entries_Created')).toThrow(/unknown event type/)
  })
})
