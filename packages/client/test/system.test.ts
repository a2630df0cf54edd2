import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src'
import type { Client } from '../src'
import { closedPort } from './closed-port'
import { startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

let server: LiveServer
let root: Client

beforeAll(async () => {
  server = await startLiveServer()
  root = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

const notFound = { name: 'ClientError', code: 'NOT_FOUND', status: 404 }

/** The task once it has finished, read through the API after the server's own wait. */
async function settled(id: string) {
  await server.waitForTask(id)
  return root.tasks.get(id)
}

describe('tasks', () => {
  it('runs an enqueued garbage collection to completion', async () => {
    const ref = await root.tasks.gc({ dryRun: true })
    expect(ref).toMatchObject({ task_type: 'gc' })
    expect((await root.tasks.list()).map((t) => t.id)).toContain(ref.id)
    const done = await settled(ref.id)
    expect(done).toMatchObject({ id: ref.id, status: 'completed', args: { dry_run: true } })
    expect(done.result).toMatchObject({ dry_run: true })
  })

  it('cancels a task, and answers NOT_FOUND for an unknown one', async () => {
    const ref = await root.tasks.reindex('/')
    expect(await root.tasks.cancel(ref.id)).toEqual({ id: ref.id, status: 'cancelled' })
    expect((await root.tasks.get(ref.id)).status).toBe('cancelled')
    await expect(root.tasks.get('no-such-task')).rejects.toMatchObject(notFound)
    await expect(root.tasks.cancel('no-such-task')).rejects.toMatchObject(notFound)
  })
})

describe('cron', () => {
  it('creates, lists, updates and deletes schedules', async () => {
    const nightly = await root.cron.create({
      id: 'nightly-gc',
      schedule: '0 3 * * *',
      task_type: 'gc',
      args: { dry_run: true },
      enabled: true,
    })
    expect(nightly).toMatchObject({ id: 'nightly-gc', enabled: true, args: { dry_run: true } })
    expect(nightly.next_run_at).toBeGreaterThan(Date.now())
    expect((await root.cron.list()).map((c) => c.id)).toContain('nightly-gc')

    const paused = await root.cron.update('nightly-gc', { enabled: false, schedule: '30 4 * * 1' })
    expect(paused).toMatchObject({ enabled: false, schedule: '30 4 * * 1' })
    expect((await root.cron.list()).find((c) => c.id === 'nightly-gc')?.enabled).toBe(false)

    expect(await root.cron.delete('nightly-gc')).toEqual({ id: 'nightly-gc', deleted: true })
    expect((await root.cron.list()).map((c) => c.id)).not.toContain('nightly-gc')
    await expect(
      root.cron.create({ id: 'bad', schedule: 'nope', task_type: 'gc', args: {}, enabled: true }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', status: 400 })
  })
})

describe('system', () => {
  it('answers health without a credential, stats, metrics text and a dry-run gc', async () => {
    const anonymous = createClient({ baseUrl: server.url })
    expect(await anonymous.system.health()).toMatchObject({ status: 'ok' })
    await expect(anonymous.system.stats()).rejects.toMatchObject({ code: 'UNAUTHORIZED' })

    await root.files.write('/stats/a.txt', 'counted')
    const stats = await root.system.stats()
    expect(stats.counts.files).toBeGreaterThanOrEqual(1)
    expect(stats.sizes.logical_data).toBeGreaterThanOrEqual(7)

    const metrics = await root.system.metrics()
    expect(metrics).toMatch(/^# HELP /)
    expect(metrics).toContain('svcdb_http_requests_total{')

    const gc = await root.system.gc({ dryRun: true })
    expect(gc).toMatchObject({ dry_run: true, reclaimed_bytes: 0 })
    expect(gc.versions_scanned).toBeGreaterThanOrEqual(1)
  })
})

describe('email', () => {
  it('has no configuration at first, masks secrets, and reports a failed test send', async () => {
    await expect(root.email.getConfig()).rejects.toMatchObject(notFound)
    const port = await closedPort()
    const config = {
      provider: 'smtp',
      host: '127.0.0.1',
      port,
      username: 'mailer',
      password: 'hunter2',
      from_address: 'db@example.com',
      tls: false,
    } as const
    const masked = { ...config, password: '•'.repeat(8) }
    expect(await root.email.setConfig(config)).toEqual(masked)
    expect(await root.email.getConfig()).toEqual(masked)

    const result = await root.email.test('someone@example.com')
    expect(result.sent).toBe(false)
    expect(result.sent === false && result.error).toContain('ECONNREFUSED')
  })
})
