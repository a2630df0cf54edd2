import { EventsError } from '@svcdb/events'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { toErrorResponse } from './error-response'
import { SessionsAppError } from './errors'

describe('toErrorResponse', () => {
  it('keeps the code of our errors, with details for validation', () => {
    const details = [{ path: 'body.id', message: 'bad' }]
    expect(
      toErrorResponse(new SessionsAppError('VALIDATION_FAILED', 'invalid', { details })),
    ).toEqual({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED', message: 'invalid', details } },
      unexpected: false,
    })
    expect(toErrorResponse(new SessionsAppError('CONFLICT', 'exists')).status).toBe(409)
    expect(toErrorResponse(new SessionsAppError('UPSTREAM_UNAVAILABLE', 'down'))).toMatchObject({
      status: 503,
      unexpected: true,
    })
  })

  it('turns a refused channel name into BAD_REQUEST and a closed hub into CLOSED', () => {
    expect(toErrorResponse(new EventsError('INVALID_CHANNEL', 'bad name')).body).toEqual({
      error: { code: 'BAD_REQUEST', message: 'bad name' },
    })
    expect(toErrorResponse(new EventsError('CLOSED', 'closed')).status).toBe(503)
  })

  it('turns an oversized body from Hono into PAYLOAD_TOO_LARGE', () => {
    expect(toErrorResponse(new HTTPException(413)).body.error.code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('hides anything else behind INTERNAL', () => {
    expect(toErrorResponse(new Error('secret stack detail'))).toEqual({
      status: 500,
      body: { error: { code: 'INTERNAL', message: 'internal error' } },
      unexpected: true,
    })
  })
})
