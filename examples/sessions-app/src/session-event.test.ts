import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { SESSIONS_APP_ROUTES, sessionEventSchema } from './session-event'

describe('sessionEventSchema', () => {
  it.each(['created', 'dispatched'])('accepts a %s envelope', (kind) => {
    expect(v.is(sessionEventSchema, { kind, sessionID: 's-1' })).toBe(true)
  })

  it.each([
    { kind: 'deleted', sessionID: 's-1' },
    { kind: 'created' },
    { kind: 'created', sessionID: '' },
    { kind: 'created', sessionId: 's-1' },
  ])('rejects %j', (event) => {
    expect(v.is(sessionEventSchema, event)).toBe(false)
  })
})

describe('SESSIONS_APP_ROUTES', () => {
  it('carries /api/v1/ in every path, as the spec requires', () => {
    for (const path of Object.values(SESSIONS_APP_ROUTES))
      expect(path.startsWith('/api/v1/')).toBe(true)
  })
})
