import { describe, expect, it } from 'vitest'
import { EngineError, isEngineError } from './errors'

describe('EngineError', () => {
  it('carries a code, a message, the path and the cause', () => {
    const cause = new Error('EIO')
    const err = new EngineError('IO_ERROR', 'cannot read pack 3', { cause, path: '/a' })
    expect(err).toMatchObject({
      name: 'EngineError',
      code: 'IO_ERROR',
      message: 'cannot read pack 3',
      path: '/a',
    })
    expect(err.cause).toBe(cause)
    expect(err).toBeInstanceOf(Error)
  })

  it('is recognised by code, also across package copies', () => {
    const err = new EngineError('NOT_FOUND', 'no such file: /a')
    expect(isEngineError(err)).toBe(true)
    expect(isEngineError(err, 'NOT_FOUND')).toBe(true)
    expect(isEngineError(err, 'CONFLICT')).toBe(false)
    expect(isEngineError({ name: 'EngineError', code: 'LOCKED' }, 'LOCKED')).toBe(true)
    expect(isEngineError(new Error('x'))).toBe(false)
    expect(isEngineError(undefined)).toBe(false)
  })
})
