import { describe, expect, it } from 'vitest'
import { EventsError, isEventsError } from './errors'

describe('EventsError', () => {
  it('carries its code and cause', () => {
    const cause = new SyntaxError('Unexpected token')
    const err = new EventsError('INVALID_WEBHOOK_CONFIG', '/.svcdb/webhooks.json is not JSON', {
      cause,
    })
    expect(err).toMatchObject({ name: 'EventsError', code: 'INVALID_WEBHOOK_CONFIG' })
    expect(err.cause).toBe(cause)
  })

  it('is recognised by code', () => {
    expect(isEventsError(new EventsError('CLOSED', 'bus closed'), 'CLOSED')).toBe(true)
    expect(isEventsError(new EventsError('CLOSED', 'bus closed'), 'INVALID_EVENT_TYPE')).toBe(false)
    expect(isEventsError(null)).toBe(false)
  })
})
