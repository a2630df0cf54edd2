import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { errorBodySchema } from './error-body'
import { ERROR_CODES, errorStatus, isErrorCode } from './error-codes'

describe('errorBodySchema', () => {
  it('accepts a body with code and message', () => {
    const body = { error: { code: 'NOT_FOUND', message: 'no such task: t1' } }
    expect(v.parse(errorBodySchema, body)).toEqual(body)
  })

  it('accepts validation details', () => {
    const body = {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'invalid request',
        details: [{ path: 'body.username', message: 'required' }],
      },
    }
    expect(v.is(errorBodySchema, body)).toBe(true)
  })

  it.each([
    ['an unknown code', { error: { code: 'TEAPOT', message: 'x' } }],
    ['a missing message', { error: { code: 'INTERNAL' } }],
    ['an empty message', { error: { code: 'INTERNAL', message: '' } }],
    ['a flat body', { code: 'INTERNAL', message: 'x' }],
    ['extra fields', { error: { code: 'INTERNAL', message: 'x', stack: 'at ...' } }],
    [
      'details of the wrong shape',
      { error: { code: 'BAD_REQUEST', message: 'x', details: ['x'] } },
    ],
  ])('rejects %s', (_name, body) => {
    expect(v.is(errorBodySchema, body)).toBe(false)
  })
})

describe('error codes', () => {
  it('give every code a 4xx or 5xx status', () => {
    for (const code of ERROR_CODES) {
      const status = errorStatus[code]
      expect(status >= 400 && status < 600, `${code} -> ${status}`).toBe(true)
    }
  })

  it('recognise known codes only', () => {
    expect(isErrorCode('CONFLICT')).toBe(true)
    expect(isErrorCode('conflict')).toBe(false)
    expect(isErrorCode(404)).toBe(false)
  })
})
