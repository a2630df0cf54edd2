import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isTerminalStatus, TASK_STATUSES, type Task } from './task'
import { DEFAULT_TASK_RETENTION, selectExpiredTasks } from './task-retention'

const T0 = Date.UTC(2026, 0, 1)

function task(id: string, status: Task['status'], finishedAt?: number): Task {
  return {
    id,
    taskType: 'gc',
    status,
    args: {},
    progress: 0,
    createdAt: T0,
    ...(finishedAt === undefined ? {} : { finishedAt }),
  }
}

describe('selectExpiredTasks', () => {
  it('removes the oldest finished tasks beyond the count', () => {
    const tasks = [
      task('a', 'completed', T0 + 1),
      task('b', 'failed', T0 + 3),
      task('c', 'cancelled', T0 + 2),
      task('d', 'pending'),
      task('e', 'running'),
    ]
    expect(selectExpiredTasks(tasks, T0 + 10, { maxCount: 1 }).sort()).toEqual(['a', 'c'])
    expect(selectExpiredTasks(tasks, T0 + 10, { maxCount: 0 }).sort()).toEqual(['a', 'b', 'c'])
  })

  it('removes finished tasks older than the age limit', () => {
    const tasks = [task('old', 'completed', T0), task('new', 'completed', T0 + 5000)]
    expect(selectExpiredTasks(tasks, T0 + 6000, { maxAgeMs: 2000 })).toEqual(['old'])
  })

  it('keeps 1000 tasks for 7 days by default', () => {
    expect(DEFAULT_TASK_RETENTION).toEqual({ maxCount: 1000, maxAgeMs: 604_800_000 })
    const weekAndASecond = 604_801_000
    expect(selectExpiredTasks([task('a', 'failed', T0)], T0 + weekAndASecond)).toEqual(['a'])
    expect(selectExpiredTasks([task('a', 'failed', T0)], T0 + 1000)).toEqual([])
  })

  it('keeps within bounds, never touches unfinished tasks, and removes no more than needed', () => {
    const arbTask = fc.record({
      status: fc.constantFrom(...TASK_STATUSES),
      finishedAt: fc.integer({ min: T0, max: T0 + 100_000 }),
    })
    fc.assert(
      fc.property(
        fc.array(arbTask, { maxLength: 40 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 100_000 }),
        (shapes, maxCount, maxAgeMs) => {
          const now = T0 + 100_000
          const tasks = shapes.map((s, i) => task(`t${i}`, s.status, s.finishedAt))
          const removed = new Set(selectExpiredTasks(tasks, now, { maxCount, maxAgeMs }))
          const kept = tasks.filter((t) => !removed.has(t.id))
          const keptFinished = kept.filter((t) => isTerminalStatus(t.status))
          expect(
            tasks.filter((t) => !isTerminalStatus(t.status)).every((t) => !removed.has(t.id)),
          ).toBe(true)
          expect(keptFinished.length).toBeLessThanOrEqual(maxCount)
          for (const t of keptFinished)
            expect(now - (t.finishedAt ?? 0)).toBeLessThanOrEqual(maxAgeMs)
          // Every removed task is older than (or as old as) every kept finished one.
          const newestRemoved = Math.max(
            ...[...removed].map((id) => tasks.find((t) => t.id === id)?.finishedAt ?? 0),
          )
          for (const t of keptFinished)
            expect(t.finishedAt ?? 0).toBeGreaterThanOrEqual(removed.size > 0 ? newestRemoved : 0)
        },
      ),
    )
  })
})
