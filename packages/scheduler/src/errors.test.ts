import { describe, expect, it } from 'vitest'
import { isSchedulerError, SchedulerError } from './errors'

describe('SchedulerError', () => {
  it('names the task or schedule it is about', () => {
    const err = new SchedulerError('NOT_FOUND', 'no such schedule: nightly', { id: 'nightly' })
    expect(err).toMatchObject({ name: 'SchedulerError', code: 'NOT_FOUND', id: 'nightly' })
  })

  it('is recognised by code', () => {
    const err = new SchedulerError('INVALID_CRON', 'expected five fields, got six')
    expect(isSchedulerError(err, 'INVALID_CRON')).toBe(true)
    expect(isSchedulerError(err, 'CONFLICT')).toBe(false)
    expect(isSchedulerError(new TypeError('x'))).toBe(false)
  })
})

describe('SchedulerError issues', () => {
  it('carries the individual problems of invalid arguments', () => {
    const issues = [{ path: 'keep', message: 'must be at least 1' }]
    const err = new SchedulerError('INVALID_ARGS', 'invalid arguments for a backup task', {
      issues,
    })
    expect(err.issues).toEqual(issues)
    expect(new SchedulerError('NOT_FOUND', 'x').issues).toBeUndefined()
  })

  it('keeps the wrapped cause', () => {
    const cause = new Error('LEVEL_IO_ERROR')
    expect(new SchedulerError('STORE_ERROR', 'writing failed', { cause }).cause).toBe(cause)
  })
})
