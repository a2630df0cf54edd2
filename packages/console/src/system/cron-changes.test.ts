import type { CronScheduleView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { cronChanges, cronSettingsOf } from './cron-changes'

const view = (over: Partial<CronScheduleView>): CronScheduleView => ({
  id: 'nightly',
  schedule: '0 3 * * *',
  task_type: 'gc',
  args: { dry_run: false },
  enabled: true,
  created_at: 1,
  updated_at: 1,
  ...over,
})

describe('cronSettingsOf', () => {
  it('starts the form from the schedule and its arguments', () => {
    expect(cronSettingsOf(view({ args: { dry_run: true } }))).toEqual({
      schedule: '0 3 * * *',
      taskType: 'gc',
      path: '/',
      dryRun: true,
      enabled: true,
    })
    expect(
      cronSettingsOf(view({ task_type: 'reindex', args: { path: '/docs' }, enabled: false })),
    ).toMatchObject({ taskType: 'reindex', path: '/docs', dryRun: false, enabled: false })
  })
})

describe('cronChanges', () => {
  it('is empty when nothing changed', () => {
    const schedule = view({})
    expect(cronChanges(schedule, cronSettingsOf(schedule))).toEqual({ changes: {} })
  })

  it('sends a new expression (spaces tidied) and a new enabled flag alone', () => {
    const schedule = view({})
    const settings = { ...cronSettingsOf(schedule), schedule: ' 15  4 * * 1 ', enabled: false }
    expect(cronChanges(schedule, settings)).toEqual({
      changes: { schedule: '15 4 * * 1', enabled: false },
    })
  })

  it('sends a new task with its own arguments only', () => {
    const schedule = view({})
    const settings = { ...cronSettingsOf(schedule), taskType: 'reindex' as const, path: '/a' }
    expect(cronChanges(schedule, settings)).toEqual({
      changes: { task_type: 'reindex', args: { path: '/a' } },
    })
  })

  it('merges a changed argument over the stored ones, keeping those the form hides', () => {
    const schedule = view({ args: { dry_run: false, note: 'kept' } })
    const settings = { ...cronSettingsOf(schedule), dryRun: true }
    expect(cronChanges(schedule, settings)).toEqual({
      changes: { args: { dry_run: true, note: 'kept' } },
    })
  })

  it('leaves a backup’s arguments alone when only its expression changes', () => {
    const schedule = view({ task_type: 'backup', args: { dir: 'nightly', keep: 7 } })
    const settings = { ...cronSettingsOf(schedule), schedule: '0 4 * * *' }
    expect(cronChanges(schedule, settings)).toEqual({ changes: { schedule: '0 4 * * *' } })
  })

  it('refuses what the create form refuses', () => {
    const schedule = view({ task_type: 'reindex', args: { path: '/docs' } })
    expect(cronChanges(schedule, { ...cronSettingsOf(schedule), path: 'docs' })).toEqual({
      error: 'The path to reindex starts with /.',
    })
    expect(cronChanges(schedule, { ...cronSettingsOf(schedule), schedule: '* *' })).toHaveProperty(
      'error',
    )
  })
})
