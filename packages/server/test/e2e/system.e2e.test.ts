import {
  cronScheduleSchema,
  errorBodySchema,
  gcResultSchema,
  importResultSchema,
  statsResponseSchema,
  taskSchema,
} from '@svcdb/contract'
import { decodeSseStream } from '@svcdb/events/sse'
import { EventSource } from 'eventsource'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

let server: ServerProcess
let root: ReturnType<typeof client>
let user: ReturnType<typeof client>
let anonymous: ReturnType<typeof client>
let rootToken: string

async function expectError(res: Response, status: number, code?: string): Promise<void> {
  expect(res.status).toBe(status)
  const body = v.parse(errorBodySchema, await res.json())
  if (code !== undefined) expect(body.error.code).toBe(code)
}

beforeAll(async () => {
  server = await startServerProcess(['--dev', '--metrics-interval', '300ms'])
  expect(server.rootApiKey).toMatch(/^svc_/)
  rootToken = (await login(server.url, server.rootApiKey as string)).token
  root = client(server.url, rootToken)
  anonymous = client(server.url)
  // A plain user, with a key made by root.
  const created = await root.post('/system/users', {
    username: 'alice',
    email: 'alice@example.com',
  })
  expect(created.status).toBe(201)
  const { user_id } = (await created.json()) as { user_id: string }
  const key = await root.post('/auth/keys/admin', { user_id })
  expect(key.status).toBe(201)
  const { api_key } = (await key.json()) as { api_key: string }
  user = client(server.url, (await login(server.url, api_key)).token)
}, 60_000)
afterAll(async () => {
  await server?.dispose()
})

describe('system endpoints over HTTP', () => {
  it('health needs no credential; stats and metrics need a token', async () => {
    expect(await (await anonymous.get('/system/health')).json()).toEqual({
      status: 'ok',
      version: expect.any(String),
    })
    await expectError(await anonymous.get('/system/stats'), 401, 'UNAUTHORIZED')
    await expectError(
      await client(server.url, 'not-a-jwt').get('/system/stats'),
      401,
      'UNAUTHORIZED',
    )
    // Stats and metrics describe the whole database: they take list on / (issue 23), which a
    // user with no group and no share lacks.
    await expectError(await user.get('/system/stats'), 403, 'FORBIDDEN')
    await expectError(await user.get('/system/metrics'), 403, 'FORBIDDEN')
    const stats = await root.get('/system/stats')
    expect(stats.status).toBe(200)
    v.parse(statsResponseSchema, await stats.json())
    await expectError(await anonymous.get('/system/metrics'), 401)
    const metrics = await root.get('/system/metrics')
    expect(metrics.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(await metrics.text()).toContain('svcdb_http_requests_total')
  })

  it('gc, tasks and cron are root-only and answer the spec statuses', async () => {
    for (const [method, path] of [
      ['post', '/system/gc'],
      ['get', '/system/tasks'],
      ['get', '/system/cron'],
      ['post', '/versions/export'],
      ['post', '/versions/import'],
    ] as const) {
      await expectError(await user[method](path), 403, 'FORBIDDEN')
      await expectError(await anonymous[method](path), 401, 'UNAUTHORIZED')
    }
    v.parse(gcResultSchema, await (await root.post('/system/gc?dry_run=true')).json())
    const task = (await (await root.post('/system/tasks/gc', { dry_run: true })).json()) as {
      id: string
    }
    expect(task).toMatchObject({ task_type: 'gc', status: 'pending' })
    let got
    for (let i = 0; i < 100; i++) {
      got = v.parse(taskSchema, await (await root.get(`/system/tasks/${task.id}`)).json())
      if (got.status === 'completed') break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(got?.status).toBe('completed')
    await expectError(await root.get('/system/tasks/none'), 404, 'NOT_FOUND')
    expect(await (await root.delete(`/system/tasks/${task.id}`)).json()).toEqual({
      id: task.id,
      status: 'cancelled',
    })
    const reindex = await root.post('/system/tasks/reindex', { path: '/' })
    expect(await reindex.json()).toMatchObject({ task_type: 'reindex', status: 'pending' })

    const schedule = {
      id: 'hourly',
      schedule: '0 * * * *',
      task_type: 'gc',
      args: { dry_run: true },
      enabled: true,
    }
    expect((await root.post('/system/cron', schedule)).status).toBe(201)
    await expectError(await root.post('/system/cron', schedule), 409, 'CONFLICT')
    await expectError(
      await root.post('/system/cron', { ...schedule, id: 'bad', schedule: '* *' }),
      400,
    )
    v.parse(
      cronScheduleSchema,
      await (await root.patch('/system/cron/hourly', { enabled: false })).json(),
    )
    await expectError(await root.patch('/system/cron/hourly', { schedule: '99 * * * *' }), 400)
    await expectError(await root.patch('/system/cron/none', { enabled: true }), 404)
    expect(await (await root.delete('/system/cron/hourly')).json()).toEqual({
      id: 'hourly',
      deleted: true,
    })
    await expectError(await root.delete('/system/cron/hourly'), 404)
  })

  it('exports, imports and promotes versions; refuses bad archives, bad hashes and oversize bodies', async () => {
    const exported = await root.post('/versions/export')
    expect(exported.headers.get('content-type')).toBe('application/octet-stream')
    expect(exported.headers.get('content-disposition')).toMatch(
      /^attachment; filename="export-[0-9a-f]{12}\.svcdb"$/,
    )
    const archive = new Uint8Array(await exported.arrayBuffer())
    const imported = v.parse(
      importResultSchema,
      await (await root.post('/versions/import', archive)).json(),
    )
    expect(imported).toMatchObject({
      status: 'imported',
      backup_type: 'export',
      head_promoted: false,
    })
    await expectError(await root.post('/versions/import', archive.slice(0, 20)), 400)
    await expectError(
      await root.post('/versions/import', new Uint8Array(10 * 1024 * 1024 + 1)),
      413,
      'PAYLOAD_TOO_LARGE',
    )
    expect(
      await (await root.post(`/versions/promote?hash=${imported.version_hash}`)).json(),
    ).toEqual({
      status: 'promoted',
      head: imported.version_hash,
    })
    await expectError(await root.post('/versions/promote?hash=abc'), 400)
    await expectError(await root.post(`/versions/promote?hash=${'a'.repeat(64)}`), 404, 'NOT_FOUND')
    const diff = await root.post(`/versions/diff?from=${imported.version_hash}`)
    expect(diff.headers.get('content-disposition')).toMatch(
      /^attachment; filename="patch-[0-9a-f]{12}\.svcdb"$/,
    )
  })

  it('streams events over SSE with the eventsource client, keyed by id', async () => {
    const source = new EventSource(`${server.url}/system/events?events=metrics`, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...init?.headers, authorization: `Bearer ${rootToken}` },
        }),
    })
    try {
      const event = await new Promise<MessageEvent<string>>((resolve, reject) => {
        source.addEventListener('metrics', (e) => resolve(e))
        source.onerror = (e) => reject(new Error(`event stream failed: ${String(e.message)}`))
      })
      const envelope = JSON.parse(event.data) as {
        event_id: string
        event_type: string
        timestamp: number
        payload: Record<string, unknown>
      }
      expect(envelope.event_type).toBe('metrics')
      expect(envelope.event_id).toBe(event.lastEventId)
      expect(Object.keys(envelope.payload).sort()).toEqual([
        'counts',
        'health',
        'sizes',
        'throughput',
      ])
      expect(envelope.payload.health).not.toHaveProperty('gc_last_reclaimed_bytes')
      const denied = await fetch(`${server.url}/system/events`)
      expect(denied.status).toBe(401)
      const bad = await root.get('/system/events?events=bogus')
      await expectError(bad, 400)
    } finally {
      source.close()
    }
  })
})

describe('what a share link sees, over HTTP (issue 23)', () => {
  it('gets no stats, metrics, snapshot or fork list, database path, metrics or versions_created events', async () => {
    const made = await root.post('/files/share-link', { paths: ['/pub'], permissions: '-r--l---' })
    expect(made.status).toBe(201)
    const { key } = (await made.json()) as { key: string }
    const linkToken = (await login(server.url, key)).token
    const link = client(server.url, linkToken)
    for (const path of [
      '/system/stats',
      '/system/metrics',
      '/versions/snapshots',
      '/versions/forks',
    ]) {
      const res = await link.get(path)
      expect(res.status).toBe(404)
      expect(await res.text()).not.toContain(server.dataDir)
    }

    const open = async (token: string) => {
      const res = await fetch(
        `${server.url}/system/events?events=metrics,versions_created,entries_created`,
        { headers: { authorization: `Bearer ${token}` } },
      )
      expect(res.status).toBe(200)
      return decodeSseStream(res.body as ReadableStream<Uint8Array>)
    }
    const linkEvents = await open(linkToken)
    // Root subscribes after the link: whatever root receives was published to both.
    const rootEvents = await open(rootToken)
    expect((await root.post('/versions/snapshots', { name: 'q3-layoffs' })).status).toBe(201)
    const seen = new Set<string>()
    while (!seen.has('metrics') || !seen.has('versions_created'))
      seen.add(((await rootEvents.next()).value as { event: string }).event)
    expect((await root.put('/files/pub/after.txt', new TextEncoder().encode('p'))).status).toBe(201)
    const first = (await linkEvents.next()).value as { event: string; data: string }
    expect(first.event).toBe('entries_created')
    expect(first.data).toContain('/pub/after.txt')
    await Promise.all([linkEvents.return(), rootEvents.return()])
  })
})
