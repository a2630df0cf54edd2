import { describe, expect, it } from 'vitest'
import { ClientError, clientErrorFromBody, isClientError } from './errors'

describe('clientErrorFromBody', () => {
  it('keeps the code, message and status of a contract error body', () => {
    const err = clientErrorFromBody(
      404,
      '{"error":{"code":"NOT_FOUND","message":"no such task: t1"}}',
    )
    expect(err).toMatchObject({ code: 'NOT_FOUND', message: 'no such task: t1', status: 404 })
    expect(err.details).toBeUndefined()
  })

  it('keeps validation details', () => {
    const body = {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'bad',
        details: [{ path: 'body.id', message: 'required' }],
      },
    }
    expect(clientErrorFromBody(400, JSON.stringify(body)).details).toEqual(body.error.details)
  })

  it.each([
    ['HTML', '<html>Bad Gateway</html>'],
    ['an empty body', ''],
    ['JSON of another shape', '{"message":"nope"}'],
    ['an unknown code', '{"error":{"code":"TEAPOT","message":"x"}}'],
  ])('reports %s as INVALID_RESPONSE with the status', (_name, text) => {
    const err = clientErrorFromBody(502, text)
    expect(err.code).toBe('INVALID_RESPONSE')
    expect(err.status).toBe(502)
    expect(err.message).toContain('502')
  })
})

describe('isClientError', () => {
  it('matches by code', () => {
    const err = new ClientError('ABORTED', 'request aborted', { status: 0 })
    expect(isClientError(err, 'ABORTED')).toBe(true)
    expect(isClientError(err, 'NETWORK_ERROR')).toBe(false)
    expect(isClientError(new Error('x'))).toBe(false)
  })
})
