import { EngineError } from '@svcdb/engine'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { toErrorResponse } from './error-response'
import { isServerError, ServerError } from './server-error'

describe('toErrorResponse', () => {
  it('maps a ServerError code to its status and keeps its message', () => {
    expect(toErrorResponse(new ServerError('CONFLICT', 'cron id exists'))).toEqual({
      status: 409,
      body: { error: { code: 'CONFLICT', message: 'cron id exists' } },
      unexpected: false,
    })
  })

  it('includes validation details', () => {
    const details = [{ path: 'body.id', message: 'required' }]
    const res = toErrorResponse(
      new ServerError('VALIDATION_FAILED', 'invalid request', { details }),
    )
    expect(res.status).toBe(400)
    expect(res.body.error.details).toEqual(details)
  })

  it('keeps the status of an HTTP exception', () => {
    const res = toErrorResponse(new HTTPException(413, { message: 'too big' }))
    expect(res).toMatchObject({
      status: 413,
      body: { error: { code: 'PAYLOAD_TOO_LARGE', message: 'too big' } },
    })
  })

  it('passes through a library error whose code is a wire code', () => {
    const err = Object.assign(new Error('no such file: /a'), { code: 'NOT_FOUND' })
    expect(toErrorResponse(err)).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    })
  })

  it('answers a full disk, as the engine reports it, 507 INSUFFICIENT_STORAGE', () => {
    const err = new EngineError(
      'INSUFFICIENT_STORAGE',
      'no space left on the device holding the database directory (ENOSPC): pack write failed',
      { cause: new Error("ENOSPC: no space left on device, open '/srv/db/packs/1.pack'") },
    )
    const res = toErrorResponse(err)
    expect(res.status).toBe(507)
    expect(res.unexpected).toBe(false)
    expect(res.body.error.code).toBe('INSUFFICIENT_STORAGE')
    expect(JSON.stringify(res.body)).not.toContain('/srv')
  })

  it('hides unknown errors behind INTERNAL without internals', () => {
    const err = Object.assign(new Error('EACCES /secret/path'), { code: 'EACCES' })
    const res = toErrorResponse(err)
    expect(res).toEqual({
      status: 500,
      body: { error: { code: 'INTERNAL', message: 'internal server error' } },
      unexpected: true,
    })
    expect(JSON.stringify(res.body)).not.toContain('secret')
  })
})

describe('library errors', () => {
  it('translates engine, auth and scheduler codes to wire codes, with Retry-After on rate limits', async () => {
    const { EngineError } = await import('@svcdb/engine')
    const { AuthError } = await import('@svcdb/auth')
    expect(toErrorResponse(new EngineError('INVALID_ARCHIVE', 'truncated')).body.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'truncated',
    })
    expect(toErrorResponse(new EngineError('TOO_LARGE', 'big')).status).toBe(413)
    expect(toErrorResponse(new EngineError('NOT_FOUND', 'gone')).status).toBe(404)
    expect(toErrorResponse(new EngineError('IO_ERROR', 'disk')).status).toBe(500)
    expect(toErrorResponse(new AuthError('INVALID_CREDENTIAL', 'no')).status).toBe(401)
    const limited = toErrorResponse(
      new AuthError('RATE_LIMITED', 'slow down', { retryAfterMs: 1500 }),
    )
    expect(limited).toMatchObject({ status: 429, headers: { 'Retry-After': '2' } })
    const cron = Object.assign(new Error('bad cron'), {
      name: 'SchedulerError',
      code: 'INVALID_CRON',
    })
    expect(toErrorResponse(cron).status).toBe(400)
  })
})

describe('isServerError', () => {
  it('matches by name and code, not by class identity', () => {
    const foreign = { name: 'ServerError', code: 'NOT_FOUND', message: 'x' }
    expect(isServerError(foreign)).toBe(true)
    expect(isServerError(foreign, 'NOT_FOUND')).toBe(true)
    expect(isServerError(foreign, 'CONFLICT')).toBe(false)
    expect(isServerError(new Error('x'))).toBe(false)
  })
})
