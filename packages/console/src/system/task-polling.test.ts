import { describe, expect, it } from 'vitest'
import { ACTIVE_POLL_MS, IDLE_POLL_MS, nextTaskPoll } from './task-polling'

const task = (status: string) => ({ status, progress: 0 })

describe('nextTaskPoll', () => {
  it('reads soon while a task is pending or running', () => {
    expect(nextTaskPoll([task('completed'), task('running')], true)).toBe(ACTIVE_POLL_MS)
    expect(nextTaskPoll([task('pending')], true)).toBe(ACTIVE_POLL_MS)
  })

  it('still reads, less often, when every task has ended or there is none', () => {
    expect(nextTaskPoll([task('completed'), task('failed')], true)).toBe(IDLE_POLL_MS)
    expect(nextTaskPoll([], true)).toBe(IDLE_POLL_MS)
    expect(IDLE_POLL_MS).toBeGreaterThan(ACTIVE_POLL_MS)
  })

  it('does not read while the page is hidden', () => {
    expect(nextTaskPoll([task('running')], false)).toBeUndefined()
    expect(nextTaskPoll([], false)).toBeUndefined()
  })
})
