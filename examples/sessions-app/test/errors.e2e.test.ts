import { createClient } from '@svcdb/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSessionsApp, SESSIONS_APP_ROUTES } from '../src'
import { startApp } from './app-harness'
import type { RunningApp } from './app-harness'
import { expectError, meta, submit, useLiveSvcdb } from './e2e-fixture'

const fx = useLiveSvcdb()

describe('errors', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp(fx.svcdb)
  })
  afterAll(async () => {
    await app?.close()
  })

  it('refuses malformed submissions with 400 and says where', async () => {
    const submitRoute = SESSIONS_APP_ROUTES.sessionSubmit
    await expectError(await app.post(submitRoute, '{"title":'), 400, 'BAD_REQUEST')
    await expectError(await app.post(submitRoute, ''), 400, 'VALIDATION_FAILED', 'body')
    await expectError(await app.post(submitRoute, []), 400, 'VALIDATION_FAILED', 'body')
    await expectError(
      await app.post(submitRoute, { title: 7 }),
      400,
      'VALIDATION_FAILED',
      'body.title',
    )
    await expectError(
      await app.post(submitRoute, { title: 'x'.repeat(201) }),
      400,
      'VALIDATION_FAILED',
      'body.title',
    )
    await expectError(
      await app.post(submitRoute, { payload: 'text' }),
      400,
      'VALIDATION_FAILED',
      'body.payload',
    )
    await expectError(
      await app.post(submitRoute, { extra: 1 }),
      400,
      'VALIDATION_FAILED',
      'body.extra',
    )
    for (const id of ['', 'a.b', 'a/b', '-a', 'x'.repeat(65), 7])
      await expectError(await app.post(submitRoute, { id }), 400, 'VALIDATION_FAILED', 'body.id')
  })

  it('refuses a second session with the same id with 409 and keeps the first', async () => {
    const first = await submit(app, { id: 'twice', title: 'one' })
    await expectError(
      await app.post(SESSIONS_APP_ROUTES.sessionSubmit, { id: 'twice', title: 'two' }),
      409,
      'CONFLICT',
    )
    expect(await meta(app, 'twice')).toMatchObject({ title: first.title })
  })

  it('refuses a body over the limit with 413', async () => {
    const big = { payload: { blob: 'x'.repeat(70 * 1024) } }
    await expectError(
      await app.post(SESSIONS_APP_ROUTES.sessionSubmit, big),
      413,
      'PAYLOAD_TOO_LARGE',
    )
  })

  it('answers meta of a malformed id with 400 and of an unknown one with 404', async () => {
    await expectError(
      await app.get('/api/v1/sessions/bad.id/meta'),
      400,
      'VALIDATION_FAILED',
      'params.id',
    )
    await expectError(
      await app.get(`/api/v1/sessions/${'x'.repeat(65)}/meta`),
      400,
      'VALIDATION_FAILED',
      'params.id',
    )
    await expectError(await app.get('/api/v1/sessions/nobody/meta'), 404, 'NOT_FOUND')
    await expectError(await app.get('/api/v1/nothing-here'), 404, 'NOT_FOUND')
  })

  it('answers meta of a session file that is not a session with 500 CORRUPT_RECORD', async () => {
    await fx.svcdb.root.files.write('/sessions/corrupt-1.json', '{"id": 7}', { ifNoneMatch: '*' })
    try {
      const body = await expectError(
        await app.get('/api/v1/sessions/corrupt-1/meta'),
        500,
        'CORRUPT_RECORD',
      )
      expect(body.error.message).toContain('/sessions/corrupt-1.json')
    } finally {
      // Else every later dispatcher on this collection would keep failing on it.
      await fx.svcdb.root.files.delete('/sessions/corrupt-1.json')
    }
  })

  it('answers 503 while svcdb is unreachable, and closes before it ever was', async () => {
    const unreachable = createSessionsApp({
      // Port 9 (discard) on loopback: nothing listens, connections are refused at once.
      client: createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_k_x', retries: 0 }),
      onError: () => undefined,
    })
    fx.defer(() => unreachable.close())
    const response = await unreachable.fetch(new Request('http://app/api/v1/sessions/s-1/meta'))
    await expectError(response, 503, 'UPSTREAM_UNAVAILABLE')
    await unreachable.close()
    await expect(unreachable.ready).rejects.toMatchObject({ code: 'CLOSED' })
  })

  it('answers 502 when svcdb refuses, and ready rejects when the key is bad', async () => {
    const errors: unknown[] = []
    const bad = createSessionsApp({
      client: createClient({ baseUrl: fx.svcdb.url, apiKey: 'svc_k_not-a-key' }),
      onError: (err) => errors.push(err),
    })
    fx.defer(() => bad.close())
    await expect(bad.ready).rejects.toMatchObject({ code: 'UPSTREAM_FAILED' })
    const response = await bad.fetch(
      new Request('http://app/api/v1/sessions', { method: 'POST', body: '{}' }),
    )
    await expectError(response, 502, 'UPSTREAM_FAILED')
  })
})
