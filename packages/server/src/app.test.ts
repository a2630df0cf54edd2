import { defineRoute, errorBodySchema, healthResponseSchema } from '@svcdb/contract'
import type { RouteDef } from '@svcdb/contract'
import { Hono } from 'hono'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createApp } from './app'
import { ServerError } from './errors/server-error'
import { createLogger } from './logger'
import type { AppEnv } from './routing/app-env'
import { assertRouteTable, mountRoutes } from './routing/mount-routes'
import { disabledAuthenticator } from './routing/principal'
import type { Authenticator } from './routing/principal'
import { handleRoute } from './routing/route-handler'
import { SERVER_VERSION } from './version'

const quiet = createLogger({ level: 'silent' })

describe('createApp', () => {
  it('answers GET /system/health with exactly status and version', async () => {
    const app = createApp({ authenticator: disabledAuthenticator, logger: quiet })
    const res = await app.request('/system/health')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = await res.json()
    expect(v.parse(healthResponseSchema, body)).toEqual({ status: 'ok', version: SERVER_VERSION })
  })

  it('reports the version of the package.json', async () => {
    const { default: pkg } = await import('../package.json', { with: { type: 'json' } })
    expect(SERVER_VERSION).toBe(pkg.version)
  })

  it('reports degraded health from its probe', async () => {
    const app = createApp({
      authenticator: disabledAuthenticator,
      health: () => 'degraded',
      logger: quiet,
    })
    expect(await (await app.request('/system/health')).json()).toMatchObject({ status: 'degraded' })
  })

  it('answers health without looking at a bad credential', async () => {
    const app = createApp({ authenticator: rejectAll, logger: quiet })
    const res = await app.request('/system/health', { headers: { authorization: 'Bearer junk' } })
    expect(res.status).toBe(200)
  })

  it.each([
    ['GET', '/nope'],
    ['POST', '/system/health'],
    ['DELETE', '/system/health/extra'],
  ])('answers %s %s with a JSON 404 error body', async (method, path) => {
    const app = createApp({ authenticator: disabledAuthenticator, logger: quiet })
    const res = await app.request(path, { method })
    expect(res.status).toBe(404)
    const body = v.parse(errorBodySchema, await res.json())
    expect(body.error.code).toBe('NOT_FOUND')
    expect(body.error.message).toContain(path)
  })

  it('adds CORS headers for allowed origins only', async () => {
    const app = createApp({
      authenticator: disabledAuthenticator,
      corsOrigins: ['https://app.example'],
      logger: quiet,
    })
    const allowed = await app.request('/system/health', {
      headers: { origin: 'https://app.example' },
    })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const other = await app.request('/system/health', {
      headers: { origin: 'https://evil.example' },
    })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('lets pages of allowed origins send the headers the client sends and read what it reads', async () => {
    const app = createApp({
      authenticator: disabledAuthenticator,
      corsOrigins: ['https://app.example'],
      logger: quiet,
    })
    const asked = ['authorization', 'content-type', 'last-event-id', 'range', 'if-none-match']
    const preflight = await app.request('/files/a.txt', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': asked.join(','),
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT')
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').split(',')
    expect(allowed).toEqual(expect.arrayContaining(asked))

    // An error answer too: a page reads its code from the body.
    const missing = await app.request('/nope', { headers: { origin: 'https://app.example' } })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const exposed = (missing.headers.get('access-control-expose-headers') ?? '').split(',')
    expect(exposed).toEqual(
      expect.arrayContaining(['etag', 'content-range', 'content-length', 'content-disposition']),
    )
  })
})

const rejectAll: Authenticator = {
  authenticate: () =>
    Promise.reject(new ServerError('UNAUTHORIZED', 'invalid or expired access token')),
}
const asUser: Authenticator = {
  authenticate: (req) =>
    Promise.resolve(
      req.headers.get('authorization') === null
        ? undefined
        : { userId: 'u1', isRoot: false, rules: [], scoped: false },
    ),
}

function appWith(routes: RouteDef[], authenticator: Authenticator) {
  const app = new Hono<AppEnv>()
  app.onError((err, c) => {
    const code = err instanceof ServerError ? err.code : 'INTERNAL'
    return c.json(
      { error: { code, message: err.message, details: (err as ServerError).details } },
      500,
    )
  })
  mountRoutes(
    app,
    routes.map((route) => handleRoute(route, (c, input) => c.json({ ok: true, input }))),
    authenticator,
  )
  return app
}

describe('mountRoutes', () => {
  const tokenRoute = defineRoute({ id: 't.token', method: 'GET', path: '/t/token', auth: 'token' })
  const rootRoute = defineRoute({ id: 't.root', method: 'GET', path: '/t/root', auth: 'root' })

  it('refuses a token route without a credential', async () => {
    const res = await appWith([tokenRoute], asUser).request('/t/token')
    expect(await res.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } })
  })

  it('lets an authenticated caller reach a token route', async () => {
    const res = await appWith([tokenRoute], asUser).request('/t/token', {
      headers: { authorization: 'Bearer x' },
    })
    expect(await res.json()).toMatchObject({ ok: true })
  })

  it('refuses a root route to a non-root caller', async () => {
    const res = await appWith([rootRoute], asUser).request('/t/root', {
      headers: { authorization: 'Bearer x' },
    })
    expect(await res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } })
  })

  it('fails at startup when a route declares no auth level', () => {
    const bad = { id: 't.bad', method: 'GET', path: '/t/bad' } as unknown as RouteDef
    expect(() => appWith([bad], asUser)).toThrow(/t\.bad.*declares no auth level/)
    expect(() =>
      assertRouteTable([
        handleRoute({ ...tokenRoute, auth: 'admin' } as unknown as RouteDef, () => new Response()),
      ]),
    ).toThrow(TypeError)
  })

  it('fails at startup when a route is declared twice', () => {
    expect(() => appWith([tokenRoute, { ...tokenRoute, id: 't.again' }], asUser)).toThrow(
      /declared twice/,
    )
  })

  it('validates params, query and body and lists every issue', async () => {
    const route = defineRoute({
      id: 't.input',
      method: 'POST',
      path: '/t/items/{id}',
      auth: 'none',
      request: {
        params: v.object({ id: v.pipe(v.string(), v.uuid()) }),
        query: v.object({ limit: v.optional(v.pipe(v.string(), v.regex(/^\d+$/))) }),
        body: v.object({ name: v.string() }),
      },
    })
    const app = appWith([route], asUser)
    const bad = await app.request('/t/items/nope?limit=x', {
      method: 'POST',
      body: JSON.stringify({ name: 3 }),
    })
    const body = (await bad.json()) as { error: { code: string; details: { path: string }[] } }
    expect(body.error.code).toBe('VALIDATION_FAILED')
    expect(body.error.details.map((d) => d.path).sort()).toEqual([
      'body.name',
      'params.id',
      'query.limit',
    ])

    const id = '0b6f1c3e-8e0b-4a51-9a53-1f1f1f1f1f1f'
    const good = await app.request(`/t/items/${id}?limit=5`, {
      method: 'POST',
      body: '{"name":"a"}',
    })
    expect(await good.json()).toEqual({
      ok: true,
      input: { params: { id }, query: { limit: '5' }, body: { name: 'a' } },
    })
  })

  it('refuses a JSON array where an object body is declared, even an all-optional one', async () => {
    const route = defineRoute({
      id: 't.object',
      method: 'POST',
      path: '/t/object',
      auth: 'none',
      request: {
        body: v.optional(
          v.pipe(
            v.strictObject({ label: v.optional(v.string()) }),
            v.check(() => true),
          ),
          {},
        ),
      },
    })
    const app = appWith([route], asUser)
    // This harness answers every error with 500; the code is what is checked here.
    const res = await app.request('/t/object', { method: 'POST', body: '[]' })
    const body = (await res.json()) as { error: { code: string; details: { path: string }[] } }
    expect(body.error.code).toBe('VALIDATION_FAILED')
    expect(body.error.details).toEqual([
      { path: 'body', message: 'must be a JSON object, not an array' },
    ])
    expect((await app.request('/t/object', { method: 'POST', body: '{}' })).status).toBe(200)
  })

  it('answers malformed JSON with BAD_REQUEST and an oversized body with PAYLOAD_TOO_LARGE', async () => {
    const route = defineRoute({
      id: 't.json',
      method: 'POST',
      path: '/t/json',
      auth: 'none',
      request: { body: v.unknown() },
    })
    const app = appWith([route], asUser)
    const malformed = await app.request('/t/json', { method: 'POST', body: '{"a":' })
    expect(await malformed.json()).toMatchObject({ error: { code: 'BAD_REQUEST' } })
    const huge = await app.request('/t/json', {
      method: 'POST',
      body: JSON.stringify({ a: 'x'.repeat(1024 * 1024) }),
    })
    expect(await huge.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } })
  })
})
