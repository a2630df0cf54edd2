import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '@svcdb/engine'
import { createScheduler } from '@svcdb/scheduler'
import type { Scheduler } from '@svcdb/scheduler'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { registerTaskHandlers } from './task-handlers'

let dir: string
let db: Database
let scheduler: Scheduler

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-reindex-task-'))
  db = await Database.open({ path: join(dir, 'data') })
  scheduler = createScheduler({})
  registerTaskHandlers(scheduler.tasks, { db, dataDir: dir })
  await scheduler.start()
  await db.writeFile(
    '/docs/.svcdb/indexes.json',
    JSON.stringify({ indexes: [{ field: '/n', type: 'number' }] }),
  )
  // Written in concurrent batches: the commit groups share their fsyncs.
  for (let start = 0; start < 3000; start += 100)
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        db.writeFile(`/docs/${start + i}.json`, JSON.stringify({ n: start + i })),
      ),
    )
})
afterEach(async () => {
  await scheduler.stop()
  await db.close()
  await rm(dir, { recursive: true, force: true })
})

describe('reindex task', () => {
  it('reports progress and an ETA while running, and builds the indexes', async () => {
    const task = await scheduler.tasks.enqueue('reindex', { path: '/docs' })
    let sawProgress = false
    for (let i = 0; i < 400; i++) {
      const now = await scheduler.tasks.get(task.id)
      if (now.status === 'running' && now.progress > 0 && now.etaMs !== undefined)
        sawProgress = true
      if (now.status === 'completed') break
      await new Promise((r) => setTimeout(r, 2))
    }
    const done = await scheduler.tasks.waitFor(task.id)
    expect(done.status).toBe('completed')
    expect(done.result).toMatchObject({ path: '/docs', documents: 3000, built: true })
    expect(sawProgress).toBe(true)
    expect((await db.query({ path: '/docs', orderBy: '/n', limit: 1 })).plan).toBe('index')
  })

  it('is cancelled midway and records nothing', async () => {
    const task = await scheduler.tasks.enqueue('reindex', { path: '/docs' })
    for (let i = 0; i < 400; i++) {
      const now = await scheduler.tasks.get(task.id)
      if (now.status === 'running' && now.progress > 0) break
      await new Promise((r) => setTimeout(r, 1))
    }
    await scheduler.tasks.cancel(task.id)
    expect((await scheduler.tasks.waitFor(task.id)).status).toBe('cancelled')
    expect((await db.query({ path: '/docs', orderBy: '/n', limit: 1 })).plan).toBe('scan')
  })
})
