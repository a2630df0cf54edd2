import { routes } from '@svcdb/contract'
import type { TokenGrantView } from '@svcdb/contract'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createClient } from '../src'
import type { Client, ClientOptions, SessionTokens } from '../src'
import { Transport } from '../src/http/transport'
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
afterEach(() => {
  vi.restoreAllMocks()
})

const tokenRoutes = new Set(['/auth/token', '/auth/refresh'])

/** A `fetch` that keeps every token grant the server answers. */
function grantRecorder() {
  const grants: TokenGrantView[] = []
  const fetchImpl: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    if (tokenRoutes.has(new URL(String(input)).pathname) && response.ok)
      grants.push((await response.clone().json()) as TokenGrantView)
    return response
  }
  return { fetch: fetchImpl, grants }
}

/** A listener that keeps what it is told. */
function tokensLog() {
  const seen: (SessionTokens | undefined)[] = []
  return { seen, onTokens: (tokens: SessionTokens | undefined) => void seen.push(tokens) }
}

const asTokens = (grant: TokenGrantView | undefined): SessionTokens => ({
  token: grant?.token ?? 'no grant',
  refreshToken: grant?.refresh_token ?? 'no grant',
})

/** A user's API key, with list rights on / so that it can read the stats. */
async function userKey(username: string) {
  const user = await root.users.create({ username })
  await root.files.shares.share({ paths: ['/'], users: [user.user_id], permissions: '-r--l---' })
  return root.keys.createAdmin({ user_id: user.user_id })
}

describe('onTokens', () => {
  it('is told the tokens the API key was exchanged for, once', async () => {
    const recorder = grantRecorder()
    const log = tokensLog()
    const client = createClient({
      baseUrl: server.url,
      apiKey: server.rootApiKey,
      fetch: recorder.fetch,
      onTokens: log.onTokens,
    })
    await Promise.all([client.auth.whoami(), client.system.stats()])
    await client.auth.whoami()
    expect(recorder.grants).toHaveLength(1)
    expect(log.seen).toEqual([asTokens(recorder.grants[0])])
    expect(log.seen[0]?.refreshToken).toMatch(/^rt_/)
  })

  it('is told every rotation, in order, with the tokens the server answered', async () => {
    const recorder = grantRecorder()
    const log = tokensLog()
    let now = Date.now()
    const t = new Transport({
      baseUrl: server.url,
      apiKey: server.rootApiKey,
      fetch: recorder.fetch,
      now: () => now,
      onTokens: log.onTokens,
    })
    await t.json(routes.systemStats)
    for (let round = 0; round < 2; round++) {
      now += 3300_000 // into the last tenth of the token's lifetime
      await t.json(routes.systemStats)
    }
    expect(recorder.grants).toHaveLength(3)
    expect(log.seen).toEqual(recorder.grants.map(asTokens))
  })

  it('lets a client started from a reported refresh token alone carry on without the key', async () => {
    const key = await userKey('keeper')
    const first = tokensLog()
    const withKey = createClient({
      baseUrl: server.url,
      apiKey: key.api_key,
      onTokens: first.onTokens,
    })
    const me = await withKey.auth.whoami()
    const refreshToken = first.seen[0]?.refreshToken
    expect(refreshToken).toMatch(/^rt_/)

    const second = tokensLog()
    const resumed = createClient({
      baseUrl: server.url,
      refreshToken: refreshToken ?? '',
      onTokens: second.onTokens,
    })
    expect(await resumed.auth.whoami()).toEqual(me)
    expect(second.seen).toHaveLength(1)
    expect(second.seen[0]?.refreshToken).toMatch(/^rt_/)
    expect(second.seen[0]?.refreshToken).not.toBe(refreshToken)
  })

  it('is told undefined when the refresh token is refused and nothing else is left', async () => {
    const key = await userKey('spent')
    const first = tokensLog()
    await createClient({
      baseUrl: server.url,
      apiKey: key.api_key,
      onTokens: first.onTokens,
    }).auth.whoami()
    const refreshToken = first.seen[0]?.refreshToken ?? ''
    // Rotate it away once, so that presenting it again is refused.
    await createClient({ baseUrl: server.url, refreshToken }).auth.whoami()

    const log = tokensLog()
    const stale = createClient({ baseUrl: server.url, refreshToken, onTokens: log.onTokens })
    await expect(stale.auth.whoami()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
    expect(log.seen).toEqual([undefined])
  })

  it('is told the access token alone when a refusal leaves it valid but unrenewable', async () => {
    const key = await userKey('unrenewable')
    const first = tokensLog()
    await createClient({
      baseUrl: server.url,
      apiKey: key.api_key,
      onTokens: first.onTokens,
    }).auth.whoami()
    const token = first.seen[0]?.token ?? ''

    const log = tokensLog()
    const expiresSoon = Date.now() + 3600_000 - 30_000 // due for renewal, not yet expired
    const t = new Transport({
      baseUrl: server.url,
      token,
      refreshToken: 'rt_not-a-refresh-token',
      now: () => expiresSoon,
      onTokens: log.onTokens,
    })
    await t.json(routes.systemStats)
    expect(log.seen).toEqual([{ token }])
  })

  it('reports what the listener throws to console.error and still answers the call', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const client = createClient({
      baseUrl: server.url,
      apiKey: server.rootApiKey,
      onTokens: () => {
        throw new Error('listener bug')
      },
    })
    expect(await client.auth.whoami()).toMatchObject({ username: 'root' })
    expect(errors).toHaveBeenCalledWith(
      'svcdb client: onTokens threw',
      expect.objectContaining({ message: 'listener bug' }),
    )
  })

  it('throws TypeError at once when it is not a function', () => {
    const options = { baseUrl: server.url, onTokens: 'yes' } as unknown as ClientOptions
    expect(() => createClient(options)).toThrow(TypeError)
  })
})
