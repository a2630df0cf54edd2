import { describe, expect, it } from 'vitest'
import type { Task } from '../task'
import * as records from './task-records'

const T0 = Date.UTC(2026, 0, 1)
const running: Task = {
  id: 't',
  taskType: 'gc',
  status: 'running',
  args: { dry_run: true },
  progress: 0.5,
  etaMs: T0 + 9000,
  createdAt: T0,
  startedAt: T0 + 1000,
  scheduleId: 'nightly',
}

describe('task records', () => {
  it('completes with progress 1, the JSON result and no estimate', () => {
    const done = records.toCompleted(running, T0 + 5000, { reclaimed: 3, at: new Date(T0) })
    expect(done).toEqual({
      ...running,
      etaMs: undefined,
      status: 'completed',
      progress: 1,
      finishedAt: T0 + 5000,
      result: { reclaimed: 3, at: new Date(T0).toISOString() },
    })
    expect(done).not.toHaveProperty('etaMs')
    expect(records.toCompleted(running, T0, undefined)).not.toHaveProperty('result')
  })

  it('fails with the message of what was thrown', () => {
    expect(records.toFailed(running, T0, new Error('disk full')).error).toBe('disk full')
    expect(records.toFailed(running, T0, new RangeError('')).error).toBe('RangeError')
    expect(records.toFailed(running, T0, 'plain').error).toBe('plain')
    expect(records.toFailed(running, T0, 42).error).toMatch(/non-error value: 42/)
  })

  it('goes back to pending with only what it was enqueued with', () => {
    expect(records.toPending(running)).toEqual({
      id: 't',
      taskType: 'gc',
      status: 'pending',
      args: { dry_run: true },
      progress: 0,
      createdAt: T0,
      scheduleId: 'nightly',
    })
  })

  it('keeps the outcome of a finished task that is cancelled afterwards', () => {
    const failed = records.toFailed(running, T0 + 2000, new Error('boom'))
    expect(records.toCancelled(failed, T0 + 9000)).toMatchObject({
      status: 'cancelled',
      finishedAt: T0 + 2000,
      error: 'boom',
    })
    expect(records.toCancelled(running, T0 + 3000)).toMatchObject({ finishedAt: T0 + 3000 })
    expect(records.toCancelled(running, T0 + 3000)).not.toHaveProperty('etaMs')
  })

  it('drops a result JSON cannot carry', () => {
    const cyclic: { self?: unknown } = {}
    cyclic.self = cyclic
    expect(records.toJson(cyclic)).toBeUndefined()
    expect(records.toJson(10n)).toBeUndefined()
    expect(records.toJson(() => 1)).toBeUndefined()
  })
})
