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
