import { describe, expect, it } from 'vitest'
import { cronBody } from './cron-body'
import type { CronFields } from './cron-body'

const fields = (over: Partial<CronFields>): CronFields => ({
  id: 'nightly',
  schedule: '0 3 * * *',
  taskType: 'gc',
  path: '',
  dryRun: false,
  enabled: true,
  ...over,
})

describe('cronBody', () => {
  it('builds a gc schedule with its dry_run argument', () => {
    expect(cronBody(fields({ id: ' nightly ', schedule: ' 0  3 * * * ' }))).toEqual({
      body: {
        id: 'nightly',
        schedule: '0 3 * * *',
        task_type: 'gc',
        args: { dry_run: false },
        enabled: true,
      },
    })
  })

  it('gives a reindex its path and a backup no arguments', () => {
    expect(cronBody(fields({ taskType: 'reindex', path: '/docs' }))).toMatchObject({
      body: { task_type: 'reindex', args: { path: '/docs' } },
    })
    expect(cronBody(fields({ taskType: 'backup', enabled: false }))).toMatchObject({
      body: { task_type: 'backup', args: {}, enabled: false },
    })
  })

  it('refuses an empty id, a wrong number of fields and a relative path', () => {
    expect(cronBody(fields({ id: ' ' }))).toEqual({ error: 'A schedule needs an ID.' })
    expect(cronBody(fields({ schedule: '* * *' }))).toHaveProperty('error')
    expect(cronBody(fields({ taskType: 'reindex', path: 'docs' }))).toEqual({
      error: 'The path to reindex starts with /.',
    })
  })
})
