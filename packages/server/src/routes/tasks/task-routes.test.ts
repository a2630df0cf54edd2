import { join } from 'node:path'
import { cronScheduleSchema, errorBodySchema, gcResultSchema, taskSchema } from '@svcdb/contract'
import { Database } from '@svcdb/engine'
import { createScheduler } from '@svcdb/scheduler'
import type { Scheduler } from '@svcdb/scheduler'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { disabledAuthenticator } from '../../routing/principal'
import { registerTaskHandlers } from '../../tasks/task-handlers'
import { taskRouteHandlers } from './task-route-handlers'
import { startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let kit: TestApp
let dir: string
let db: Database
let scheduler: Scheduler
let app: TestApp['app']

beforeEach(async () => {
  kit = await startTestApp(
    (deps) => {
      scheduler = createScheduler({})
      registerTaskHandlers(scheduler.tasks, { db: deps.db, dataDir: deps.dir })
      return taskRouteHandlers({ db: deps.db, scheduler })
    },
    { authenticator: disabledAuthenticator },
  )
  ;({ dir, db, app } = kit)
  await scheduler.start()
})
afterEach(async () => {
  await scheduler.stop()
  await kit.close()
})

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

async function errorOf(res: Response, status: number) {
  expect(res.status).toBe(status)
  return v.parse(errorBodySchema, await res.json()).error
}

describe('POST /system/gc', () => {
  it('runs a collection synchronously and answers its statistics', async () => {
    await db.writeFile('/a', 'x')
    const dry = await app.request('/system/gc?dry_run=true', { method: 'POST' })
    expect(dry.status).toBe(200)
    expect(v.parse(gcResultSchema, await dry.json())).toMatchObject({ dry_run: true })
    const real = await app.request('/system/gc', { method: 'POST' })
    const body = v.parse(gcResultSchema, await real.json())
    expect(body.dry_run).toBe(false)
    expect(body.versions_scanned).toBeGreaterThan(0)
    expect(
      (await errorOf(await app.request('/system/gc?dry_run=maybe', { method: 'POST' }), 400)).code,
    ).toBe('VALIDATION_FAILED')
  })
})

describe('POST /system/gc while another runs', () => {
  it('answers 409 CONFLICT, not a failure, and the first one completes', async () => {
    await db.writeFile('/a', 'x')
    // Marked as running at once; its first storage read cannot finish before the request,
    // which only waits on microtasks, reaches the engine.
    const running = db.gc()
    const second = await app.request('/system/gc', { method: 'POST' })
    expect((await errorOf(second, 409)).code).toBe('CONFLICT')
    expect((await running).dryRun).toBe(false)
    expect((await app.request('/system/gc', { method: 'POST' })).status).toBe(200)
  })
})

describe('tasks', () => {
  it('enqueues gc and reindex tasks that run to completion, lists, gets and cancels', async () => {
    await db.writeFile('/docs/a.txt', 'a')
    await db.writeFile(
      '/docs/.svcdb/indexes.json',
      JSON.stringify({ indexes: [{ field: '@size', type: 'number' }] }),
    )
    const gc = await app.request('/system/tasks/gc', json({ dry_run: true }))
    expect(gc.status).toBe(200)
    const gcRef = (await gc.json()) as { id: string; task_type: string; status: string }
    expect(gcRef).toEqual({ id: expect.any(String), task_type: 'gc', status: 'pending' })
    const done = await scheduler.tasks.waitFor(gcRef.id)
    expect(done.status).toBe('completed')
    const got = v.parse(taskSchema, await (await app.request(`/system/tasks/${gcRef.id}`)).json())
    expect(got).toMatchObject({
      id: gcRef.id,
      task_type: 'gc',
      args: { dry_run: true },
      progress: 1,
    })
    expect(got.result).toMatchObject({ dry_run: true })

    const reindex = (await (
      await app.request('/system/tasks/reindex', json({ path: '/docs' }))
    ).json()) as { id: string }
    expect((await scheduler.tasks.waitFor(reindex.id)).result).toMatchObject({
      path: '/docs',
      documents: 1,
      built: true,
    })
    const list = (await (await app.request('/system/tasks')).json()) as { items: unknown[] }
    expect(list.items.map((t) => v.parse(taskSchema, t).id)).toEqual([gcRef.id, reindex.id])

    const cancelled = await app.request(`/system/tasks/${reindex.id}`, { method: 'DELETE' })
    expect(await cancelled.json()).toEqual({ id: reindex.id, status: 'cancelled' })
    expect((await errorOf(await app.request('/system/tasks/nope'), 404)).code).toBe('NOT_FOUND')
    expect(
      (await errorOf(await app.request('/system/tasks/nope', { method: 'DELETE' }), 404)).code,
    ).toBe('NOT_FOUND')
    expect((await errorOf(await app.request('/system/tasks/reindex', json({})), 400)).code).toBe(
      'VALIDATION_FAILED',
    )
  })

  it('backs up HEAD to a file that imports to the same version', async () => {
    await db.writeFile('/keep.txt', 'backed up')
    const task = await scheduler.tasks.enqueue('backup', { keep: 1 })
    const done = await scheduler.tasks.waitFor(task.id)
    expect(done.status).toBe('completed')
    const { file } = done.result as { file: string }
    const { readFile } = await import('node:fs/promises')
    const copy = await Database.open({ path: join(dir, 'copy') })
    const result = await copy.importArchive(await readFile(file), { promote: true })
    expect(result.versionHash).toBe(db.head())
    await copy.close()
  })
})

describe('cron', () => {
  it('creates, lists, updates and deletes schedules with the spec statuses', async () => {
    const body = {
      id: 'nightly-gc',
      schedule: '0 3 * * *',
      task_type: 'gc',
      args: { dry_run: false },
      enabled: true,
    }
    const created = await app.request('/system/cron', json(body))
    expect(created.status).toBe(201)
    expect(v.parse(cronScheduleSchema, await created.json())).toMatchObject(body)
    expect((await errorOf(await app.request('/system/cron', json(body)), 409)).code).toBe(
      'CONFLICT',
    )
    expect(
      (
        await errorOf(
          await app.request('/system/cron', json({ ...body, id: 'x', schedule: '61 * * * *' })),
          400,
        )
      ).code,
    ).toBe('BAD_REQUEST')
    expect((await errorOf(await app.request('/system/cron', json({ id: 'y' })), 400)).code).toBe(
      'VALIDATION_FAILED',
    )

    const patch = (id: string, b: unknown) =>
      app.request(`/system/cron/${id}`, { ...json(b), method: 'PATCH' })
    const updated = v.parse(
      cronScheduleSchema,
      await (await patch('nightly-gc', { enabled: false })).json(),
    )
    expect(updated).toMatchObject({ id: 'nightly-gc', enabled: false })
    expect((await errorOf(await patch('nightly-gc', { schedule: 'not cron' }), 400)).code).toBe(
      'BAD_REQUEST',
    )
    expect((await errorOf(await patch('missing', { enabled: true }), 404)).code).toBe('NOT_FOUND')
    const list = (await (await app.request('/system/cron')).json()) as { items: { id: string }[] }
    expect(list.items.map((s) => s.id)).toEqual(['nightly-gc'])
    expect(
      await (await app.request('/system/cron/nightly-gc', { method: 'DELETE' })).json(),
    ).toEqual({
      id: 'nightly-gc',
      deleted: true,
    })
    expect(
      (await errorOf(await app.request('/system/cron/nightly-gc', { method: 'DELETE' }), 404)).code,
    ).toBe('NOT_FOUND')
  })
})
