import { createAuth, createMemoryIdentityStore } from '@svcdb/auth'
import { errorBodySchema, statsResponseSchema } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import { createEventBus } from '@svcdb/events'
import type { EventBus } from '@svcdb/events'
import { decodeSseStream } from '@svcdb/events/sse'
import { createScheduler } from '@svcdb/scheduler'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '../../app'
import { createBearerAuthenticator } from '../../auth/bearer-authenticator'
import { createLogger } from '../../logger'
import { createDiskSampler } from '../../observability/disk-sampler'
import type { DiskSampler } from '../../observability/disk-sampler'
import { createServerMetrics } from '../../observability/server-metrics'
import type { ServerMetrics } from '../../observability/server-metrics'
import { disabledAuthenticator } from '../../routing/principal'
import { createEngineEventPublisher } from '../../services/engine-events'
import { systemRouteHandlers } from './system-route-handlers'
import { startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let kit: TestApp
let dir: string
let db: Database
let bus: EventBus
let disk: DiskSampler
let shutdown: AbortController
let app: TestApp['app']

beforeEach(async () => {
  let metrics: ServerMetrics | undefined
  kit = await startTestApp(
    ({ db, auth, dir }) => {
      bus = createEventBus({ nodeId: 7 })
      const engineEvents = createEngineEventPublisher(db, bus, (err) => {
        throw err
      })
      db.onChange((change) => engineEvents.publish(change))
      disk = createDiskSampler(dir)
      shutdown = new AbortController()
      metrics = createServerMetrics({ db, bus, tasks: createScheduler({}).tasks })
      return systemRouteHandlers({
        db,
        auth,
        authenticator: disabledAuthenticator,
        bus,
        disk,
        metrics,
        identity: { version: '9.9.9', databasePath: dir, nodeId: 7, startedAt: Date.now() - 5000 },
        now: Date.now,
        shutdown: shutdown.signal,
      })
    },
    {
      auth: { mode: { kind: 'disabled' } },
      authenticator: disabledAuthenticator,
      observe: (c, next) => (metrics as ServerMetrics).observe(c, next),
    },
  )
  ;({ dir, db, app } = kit)
})
afterEach(async () => {
  shutdown.abort()
  disk.stop()
  bus.close()
  await kit.close()
})

describe('GET /system/stats', () => {
  it('answers every section and field with the spec types, and no sync section', async () => {
    await db.writeFile('/a/b.txt', 'hello')
    await db.snapshots.create('s')
    await disk.refresh()
    const res = await app.request('/system/stats')
    expect(res.status).toBe(200)
    const raw = (await res.json()) as Record<string, unknown>
    const stats = v.parse(v.strictObject(statsResponseSchema.entries), raw)
    expect('sync' in raw).toBe(false)
    expect(stats.identity).toMatchObject({
      version: '9.9.9',
      database_path: dir,
      hash_algorithm: 'sha256',
      node_id: 7,
    })
    expect(stats.identity.uptime_seconds).toBeGreaterThanOrEqual(5)
    expect(stats.counts).toEqual({
      files: 1,
      directories: 1,
      symlinks: 0,
      chunks: 1,
      snapshots: 1,
      forks: 0,
    })
    expect(stats.sizes.logical_data).toBe(5)
    expect(stats.sizes.disk_total).toBeGreaterThan(0)
    expect(stats.sizes.kv_file).toBeGreaterThan(0)
    expect(stats.health.disk_usage_percent).toBeGreaterThan(0)
    expect(Object.keys(stats.throughput.writes_per_sec).sort()).toEqual([
      '15m',
      '1m',
      '5m',
      'peak_1m',
    ])
  })
})

describe('GET /system/metrics', () => {
  it('serves the Prometheus text format with HTTP and engine metrics', async () => {
    await app.request('/system/stats')
    await db.writeFile('/x', 'y')
    const res = await app.request('/system/metrics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    const text = await res.text()
    expect(text).toMatch(
      /svcdb_http_requests_total\{method="GET",route="\/system\/stats",status="200"\} 1/,
    )
    expect(text).toMatch(/svcdb_http_request_duration_seconds_bucket\{/)
    expect(text).toMatch(/svcdb_engine_files 1/)
    expect(text).toMatch(/svcdb_event_subscribers 0/)
  })
})

describe('GET /system/events', () => {
  it('streams engine changes as spec events, filtered by type and path prefix, and replays after Last-Event-ID', async () => {
    const res = await app.request(
      '/system/events?events=entries_created,versions_created&path_prefix=/docs',
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = decodeSseStream(res.body as ReadableStream<Uint8Array>)
    await db.writeFile('/other/skip.txt', 'x')
    await db.writeFile('/docs/a.txt', 'a')
    await db.delete('/docs/a.txt')
    await db.writeFile('/docs/b.txt', 'b')
    const first = (await events.next()).value as { event: string; data: string; id: string }
    expect(first.event).toBe('entries_created')
    const envelope = JSON.parse(first.data) as {
      event_id: string
      event_type: string
      timestamp: number
      payload: { entries: { path: string }[] }
    }
    expect(envelope).toMatchObject({
      event_id: first.id,
      event_type: 'entries_created',
      payload: { entries: [{ path: '/docs/a.txt' }] },
    })
    const second = (await events.next()).value as { data: string }
    expect(JSON.parse(second.data).payload.entries).toEqual([
      { path: '/docs/b.txt', entry_type: 'file' },
    ])
    await events.return()

    const replay = await app.request('/system/events?events=entries_created', {
      headers: { 'Last-Event-ID': first.id },
    })
    const replayed = decodeSseStream(replay.body as ReadableStream<Uint8Array>)
    const next = (await replayed.next()).value as { data: string }
    expect(JSON.parse(next.data).payload.entries[0].path).toBe('/docs/b.txt')
    await replayed.return()
  })

  it('refuses an unknown event type with 400', async () => {
    const res = await app.request('/system/events?events=nope')
    expect(res.status).toBe(400)
    expect(v.parse(errorBodySchema, await res.json()).error.code).toBe('BAD_REQUEST')
  })
})

describe('GET /system/events with a scoped key', () => {
  async function scopedSetup(rules: Record<string, string>[]) {
    const auth = createAuth({ store: createMemoryIdentityStore() })
    const { rootApiKey } = await auth.bootstrap()
    const rootPrincipal = await auth.authenticate(
      (await auth.exchangeApiKey(rootApiKey as string)).token,
    )
    const scoped = await auth.keys.create(rootPrincipal, { rules })
    const token = (await auth.exchangeApiKey(scoped.key)).token
    const authenticator = createBearerAuthenticator(auth)
    const scopedApp = createApp({
      authenticator,
      handlers: systemRouteHandlers({
        db,
        auth,
        authenticator,
        bus,
        disk,
        metrics: createServerMetrics({ db, bus, tasks: createScheduler({}).tasks }),
        identity: { version: '1', databasePath: dir, nodeId: 0, startedAt: Date.now() },
        now: Date.now,
        shutdown: shutdown.signal,
        accessRefreshMs: 50,
      }),
      logger: createLogger({ level: 'silent' }),
    })
    const res = await scopedApp.request('/system/events?events=entries_created', {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    return {
      auth,
      rootPrincipal,
      scoped,
      events: decodeSseStream(res.body as ReadableStream<Uint8Array>),
    }
  }

  it('delivers only the entries the key may read', async () => {
    const { events } = await scopedSetup([{ '/docs/**': '-r--l---' }])
    await db.writeFile('/secret/plan.txt', 'hidden')
    await db.writeFile('/docs/open.txt', 'visible')
    const first = (await events.next()).value as { data: string }
    expect(JSON.parse(first.data).payload.entries).toEqual([
      { path: '/docs/open.txt', entry_type: 'file' },
    ])
    await events.return()
  })

  it('ends the stream once its key is revoked', async () => {
    const { auth, rootPrincipal, scoped, events } = await scopedSetup([{ '/docs/**': '-r--l---' }])
    await db.writeFile('/docs/a.txt', 'a')
    expect(((await events.next()).value as { data: string }).data).toContain('/docs/a.txt')
    await auth.keys.revoke(rootPrincipal, scoped.keyId)
    // The next refresh finds the key revoked and closes the stream; nothing more arrives.
    const end = await events.next()
    expect(end.done).toBe(true)
  })
})

describe('GET /system/events for a user given a share', () => {
  it('stops delivering a path as soon as its share is revoked', async () => {
    const auth = createAuth({ store: createMemoryIdentityStore() })
    const { rootApiKey } = await auth.bootstrap()
    const ada = await auth.users.create({ username: 'ada' })
    const root = await auth.authenticate((await auth.exchangeApiKey(rootApiKey as string)).token)
    const key = await auth.keys.create(root, { userId: ada.userId })
    const token = (await auth.exchangeApiKey(key.key)).token
    await auth.shares.grant({ paths: ['/team'], userIds: [ada.userId], permissions: '-r--l---' })
    const authenticator = createBearerAuthenticator(auth)
    const userApp = createApp({
      authenticator,
      handlers: systemRouteHandlers({
        db,
        auth,
        authenticator,
        bus,
        disk,
        metrics: createServerMetrics({ db, bus, tasks: createScheduler({}).tasks }),
        identity: { version: '1', databasePath: dir, nodeId: 0, startedAt: Date.now() },
        now: Date.now,
        shutdown: shutdown.signal,
        accessRefreshMs: 60_000,
      }),
      logger: createLogger({ level: 'silent' }),
    })
    const res = await userApp.request('/system/events?events=entries_created', {
      headers: { authorization: `Bearer ${token}` },
    })
    const events = decodeSseStream(res.body as ReadableStream<Uint8Array>)
    await db.writeFile('/team/one.txt', '1')
    expect(((await events.next()).value as { data: string }).data).toContain('/team/one.txt')

    await auth.shares.revoke({ path: '/team', userId: ada.userId })
    bus.publish('permissions_changed', { path: '/team' })
    // The refresh is asynchronous: wait until a probe write stops reaching the stream.
    await new Promise((resolve) => setTimeout(resolve, 50))
    await db.writeFile('/team/two.txt', '2')
    await db.writeFile('/public-marker.txt', 'm')
    await auth.shares.grant({
      paths: ['/public-marker.txt'],
      userIds: [ada.userId],
      permissions: '-r------',
    })
    bus.publish('permissions_changed', { path: '/public-marker.txt' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    await db.writeFile('/public-marker.txt', 'again')
    const next = ((await events.next()).value as { data: string }).data
    expect(next).toContain('/public-marker.txt')
    expect(next).not.toContain('/team/two.txt')
    await events.return()
  })
})
