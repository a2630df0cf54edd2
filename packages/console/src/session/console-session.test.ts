import { describe, expect, it } from 'vitest'
import { createConsoleSession } from './console-session'
import type { ConsoleSession } from './console-session'
import { createFakeServer, FAKE_ME, GOOD_KEY, MAGIC_LINK_MESSAGE } from './fake-server-client'
import type { FakeServer } from './fake-server-client'
import { createMemoryStorage } from './memory-storage'
import type { MemoryStorage } from './memory-storage'
import { REFRESH_TOKEN_KEY } from './refresh-token-store'

const baseUrl = 'http://127.0.0.1:6830'

function setup(storage: MemoryStorage = createMemoryStorage()) {
  const server = createFakeServer()
  const session = createConsoleSession({ baseUrl, storage, createClient: server.createClient })
  return { server, storage, session }
}

/** Everything the console handed to clients and storage after the first client. */
const keptAfterSignIn = (server: FakeServer, storage: MemoryStorage) =>
  JSON.stringify([server.made.slice(1), [...storage.entries]])

async function signedIn(): Promise<{
  server: FakeServer
  storage: MemoryStorage
  session: ConsoleSession
}> {
  const s = setup()
  await s.session.signIn(GOOD_KEY)
  return s
}

describe('console session', () => {
  it('signs in with an API key, keeps the refresh token and forgets the key', async () => {
    const { server, storage, session } = setup()
    const { client, me } = await session.signIn(GOOD_KEY)
    expect(me).toEqual(FAKE_ME)
    expect(storage.entries).toEqual(new Map([[REFRESH_TOKEN_KEY, 'rt_1']]))
    expect(server.made).toHaveLength(2)
    expect(server.made[0]?.apiKey).toBe(GOOD_KEY)
    expect(server.made[1]).toMatchObject({ baseUrl, token: 'at_1', refreshToken: 'rt_1' })
    expect(server.made[1]).not.toHaveProperty('apiKey')
    expect(keptAfterSignIn(server, storage)).not.toContain(GOOD_KEY)
    // The client handed back is the one made from the tokens.
    expect(await client.auth.whoami()).toEqual(FAKE_ME)
  })

  it('stores each refresh token the signed-in client rotates to', async () => {
    const { server, storage, session } = setup()
    await session.signIn(GOOD_KEY)
    const kept = server.made[1]
    kept?.onTokens?.({ token: 'at_9', refreshToken: 'rt_9' })
    expect(storage.entries.get(REFRESH_TOKEN_KEY)).toBe('rt_9')
    kept?.onTokens?.({ token: 'at_9' })
    expect(storage.entries.size).toBe(0)
  })

  it('fails with the server error for a wrong key and stores nothing', async () => {
    const { storage, session } = setup()
    await expect(session.signIn('svc_wrong')).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'the API key is not valid',
    })
    expect(storage.entries.size).toBe(0)
  })

  it('resumes from the stored refresh token alone, storing the rotated one', async () => {
    const storage = createMemoryStorage()
    storage.setItem(REFRESH_TOKEN_KEY, 'rt_saved')
    const { server, session } = setup(storage)
    server.liveRefreshTokens.add('rt_saved')
    const resumed = await session.resume()
    expect(resumed?.me).toEqual(FAKE_ME)
    expect(server.made).toEqual([
      { baseUrl, refreshToken: 'rt_saved', onTokens: expect.any(Function) },
    ])
    expect(storage.entries).toEqual(new Map([[REFRESH_TOKEN_KEY, 'rt_1']]))
  })

  it('resumes to nothing, making no client, when nothing is stored', async () => {
    const { server, session } = setup()
    expect(await session.resume()).toBeUndefined()
    expect(server.made).toEqual([])
  })

  it('resumes to nothing and clears a refresh token the server refuses', async () => {
    const storage = createMemoryStorage()
    storage.setItem(REFRESH_TOKEN_KEY, 'rt_revoked')
    const { session } = setup(storage)
    expect(await session.resume()).toBeUndefined()
    expect(storage.entries.size).toBe(0)
  })

  it('clears the refresh token and throws when the server cannot be reached', async () => {
    const storage = createMemoryStorage()
    storage.setItem(REFRESH_TOKEN_KEY, 'rt_1')
    const { server, session } = setup(storage)
    server.offline = true
    await expect(session.resume()).rejects.toMatchObject({ code: 'NETWORK_ERROR' })
    expect(storage.entries.size).toBe(0)
  })

  it('signs out by clearing the token, and a client left behind stores nothing more', async () => {
    const { server, storage, session } = await signedIn()
    session.signOut()
    expect(storage.entries.size).toBe(0)
    server.made[1]?.onTokens?.({ token: 'at_late', refreshToken: 'rt_late' })
    expect(storage.entries.size).toBe(0)
  })

  it('asks for a magic link without any credential and returns the server’s answer', async () => {
    const { server, storage, session } = setup()
    expect(await session.requestMagicLink('ada@example.com')).toBe(MAGIC_LINK_MESSAGE)
    expect(server.magicLinkRequests).toEqual(['ada@example.com'])
    expect(server.made).toEqual([{ baseUrl }])
    expect(storage.entries.size).toBe(0)
  })

  it('signs in with a magic-link code to a bare access token, storing nothing', async () => {
    const { server, storage, session } = setup()
    server.liveMagicLinkCodes.add('ml_1')
    const { client, me } = await session.signInWithMagicLink('ml_1')
    expect(me).toEqual(FAKE_ME)
    expect(server.made).toEqual([{ baseUrl }, { baseUrl, token: 'at_1' }])
    expect(storage.entries.size).toBe(0)
    expect(await client.auth.whoami()).toEqual(FAKE_ME)
  })

  it('refuses a used code with the server’s error, a token left from before cleared', async () => {
    const { server, storage, session } = setup()
    server.liveMagicLinkCodes.add('ml_1')
    await session.signInWithMagicLink('ml_1')
    storage.setItem(REFRESH_TOKEN_KEY, 'rt_left')
    await expect(session.signInWithMagicLink('ml_1')).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'invalid, expired or used magic link code',
    })
    expect(storage.entries.size).toBe(0)
  })

  it('forgets an API-key session when a magic link signs in, its client storing nothing more', async () => {
    const { server, storage, session } = await signedIn()
    expect(storage.entries.size).toBe(1)
    server.liveMagicLinkCodes.add('ml_1')
    await session.signInWithMagicLink('ml_1')
    expect(storage.entries.size).toBe(0)
    server.made[1]?.onTokens?.({ token: 'at_late', refreshToken: 'rt_late' })
    expect(storage.entries.size).toBe(0)
  })
})
