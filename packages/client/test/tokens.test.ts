import { routes } from '@svcdb/contract'
import type { TokenGrantView } from '@svcdb/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src'
import type { Client } from '../src'
import { Transport } from '../src/http/transport'
import { recordingFetch, startLiveServer } from './live-server'
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

const unauthorized = { name: 'ClientError', code: 'UNAUTHORIZED', status: 401 }

/** A `fetch` that records the JSON bodies sent to and answered by the token routes. */
function authRecorder() {
  const grants: { path: string; sent: Record<string, string>; status: number; answer: unknown }[] =
    []
  const recorder = recordingFetch()
  const fetchImpl: typeof fetch = async (input, init) => {
    const response = await recorder.fetch(input, init)
    const path = new URL(String(input)).pathname
    if (path.startsWith('/auth/'))
      grants.push({
        path,
        sent: JSON.parse(String(init?.body)) as Record<string, string>,
        status: response.status,
        answer: await response.clone().json(),
      })
    return response
  }
  return { fetch: fetchImpl, calls: recorder.calls, grants }
}

/** A user's API key, and a token grant obtained for it outside any client. */
async function userGrant(username: string) {
  const user = await root.users.create({ username })
  // The stats probed below are the whole database's: they take list on / (issue 23).
  await root.files.shares.share({ paths: ['/'], users: [user.user_id], permissions: '-r--l---' })
  const key = await root.keys.createAdmin({ user_id: user.user_id })
  const response = await fetch(`${server.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: key.api_key }),
  })
  return { key, grant: (await response.json()) as TokenGrantView }
}

const authCalls = <T extends { path: string }>(calls: T[]) =>
  calls.filter((c) => c.path.startsWith('/auth/'))

describe('token session', () => {
  it('exchanges the key once for twenty concurrent first calls', async () => {
    const recorder = recordingFetch()
    const client = createClient({
      baseUrl: server.url,
      apiKey: server.rootApiKey,
      fetch: recorder.fetch,
    })
    await Promise.all(Array.from({ length: 20 }, () => client.system.stats()))
    expect(authCalls(recorder.calls).map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /auth/token',
    ])
    expect(recorder.calls.filter((c) => c.path === '/system/stats')).toHaveLength(20)
  })

  it('renews before expiry with one refresh for concurrent calls, each refresh token once', async () => {
    const recorder = authRecorder()
    let now = Date.now()
    const t = new Transport({
      baseUrl: server.url,
      apiKey: server.rootApiKey,
      fetch: recorder.fetch,
      now: () => now,
    })
    const burst = () => Promise.all(Array.from({ length: 10 }, () => t.json(routes.systemStats)))
    await burst()
    expect(recorder.grants.map((g) => g.path)).toEqual(['/auth/token'])
    expect((recorder.grants[0]?.answer as TokenGrantView).expires_in).toBe(3600)

    now += 3000_000 // still well inside the hour
    await burst()
    expect(recorder.grants).toHaveLength(1)

    for (let round = 0; round < 3; round++) {
      now += 3300_000 // into the last tenth of the token's lifetime
      await burst()
    }
    expect(recorder.grants.map((g) => [g.path, g.status])).toEqual([
      ['/auth/token', 200],
      ['/auth/refresh', 200],
      ['/auth/refresh', 200],
      ['/auth/refresh', 200],
    ])
    // Each refresh presents the token the previous grant answered, and none twice.
    const presented = recorder.grants.slice(1).map((g) => g.sent.refresh_token)
    const issued = recorder.grants
      .slice(0, -1)
      .map((g) => (g.answer as TokenGrantView).refresh_token)
    expect(presented).toEqual(issued)
    expect(new Set(presented).size).toBe(presented.length)
    expect(recorder.calls.filter((c) => c.path === '/system/stats')).toHaveLength(50)
  })

  it('renews once and retries when the server refuses a token the client still trusted', async () => {
    const { grant } = await userGrant('stale')
    const recorder = authRecorder()
    const client = createClient({
      baseUrl: server.url,
      token: 'not-a-valid-token',
      refreshToken: grant.refresh_token,
      fetch: recorder.fetch,
    })
    expect((await client.system.stats()).counts).toBeDefined()
    expect(recorder.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /system/stats',
      'POST /auth/refresh',
      'GET /system/stats',
    ])
    expect(recorder.grants[0]?.sent).toEqual({ refresh_token: grant.refresh_token })
  })

  it('keeps using a still-valid token when its renewal fails and there is no key', async () => {
    const { grant } = await userGrant('no-renewal')
    const recorder = authRecorder()
    const expiresAt = Date.now() + grant.expires_in * 1000
    const t = new Transport({
      baseUrl: server.url,
      token: grant.token,
      refreshToken: 'rt_not-a-refresh-token',
      fetch: recorder.fetch,
      now: () => expiresAt - 30_000, // due for renewal, not yet expired
    })
    await t.json(routes.systemStats)
    await t.json(routes.systemStats)
    expect(recorder.grants.map((g) => [g.path, g.status])).toEqual([['/auth/refresh', 401]])
    expect(recorder.calls.filter((c) => c.path === '/system/stats')).toHaveLength(2)
  })

  it('uses a bare token as is, until its key is revoked', async () => {
    const { key, grant } = await userGrant('bare')
    const recorder = recordingFetch()
    const client = createClient({ baseUrl: server.url, token: grant.token, fetch: recorder.fetch })
    await client.system.stats()
    await root.keys.revokeAdmin(key.key_id)
    await expect(client.system.stats()).rejects.toMatchObject(unauthorized)
    // Nothing to renew with: no token call, and no retry.
    expect(recorder.calls.map((c) => c.path)).toEqual(['/system/stats', '/system/stats'])
  })

  it('tries to renew once when its key is revoked, then fails with UNAUTHORIZED', async () => {
    const { key } = await userGrant('revoked')
    const recorder = authRecorder()
    const client = createClient({ baseUrl: server.url, apiKey: key.api_key, fetch: recorder.fetch })
    await client.system.stats()
    recorder.calls.length = 0
    recorder.grants.length = 0

    await root.keys.revokeAdmin(key.key_id)
    await expect(client.system.stats()).rejects.toMatchObject(unauthorized)
    // The refresh is refused as well (the key is re-checked), so the key is exchanged again.
    expect(recorder.grants.map((g) => [g.path, g.status])).toEqual([
      ['/auth/refresh', 401],
      ['/auth/token', 401],
    ])
    expect(recorder.calls.filter((c) => c.path === '/system/stats')).toHaveLength(1)
  })
})
