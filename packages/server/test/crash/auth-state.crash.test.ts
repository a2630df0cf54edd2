import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

// Every step below is acknowledged (its answer read) and then the server is killed with
// SIGKILL at once: nothing is flushed or closed, so only what was durable when the answer
// left survives. `--dev` prints magic links on stdout, where the test reads their codes.
let server: ServerProcess
let dataDir: string
let rootApiKey: string

async function crashAndRestart(): Promise<void> {
  expect(await server.kill('SIGKILL')).toBe('SIGKILL')
  server = await startServerProcess(['--dev'], dataDir)
}

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
const refresh = (token: string) => post('/auth/refresh', { refresh_token: token })
const root = async () => client(server.url, (await login(server.url, rootApiKey)).token)

beforeAll(async () => {
  server = await startServerProcess(['--dev'])
  dataDir = server.dataDir
  rootApiKey = server.rootApiKey as string
}, 60_000)

afterAll(async () => {
  await server?.stop()
  const { rm } = await import('node:fs/promises')
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
})

describe('auth state across kill -9', () => {
  it('keeps a key acknowledged as created, self-service and admin alike', async () => {
    const api = await root()
    const own = await api.post('/auth/keys', { label: 'crash' })
    expect(own.status).toBe(201)
    const { key } = (await own.json()) as { key: string }
    await crashAndRestart()
    expect((await post('/auth/token', { api_key: key })).status).toBe(200)

    const user = await (await root()).post('/system/users', { username: 'dora' })
    expect(user.status).toBe(201)
    const { user_id } = (await user.json()) as { user_id: string }
    await crashAndRestart()
    const admin = await (await root()).post('/auth/keys/admin', { user_id })
    expect(admin.status).toBe(201)
    const { api_key } = (await admin.json()) as { api_key: string }
    await crashAndRestart()
    expect((await post('/auth/token', { api_key })).status).toBe(200)
  }, 60_000)

  it('keeps a rotation: the new refresh token works, the rotated-out one stays rejected', async () => {
    const first = (await login(server.url, rootApiKey)).refresh_token
    const rotated = await refresh(first)
    expect(rotated.status).toBe(200)
    const second = ((await rotated.json()) as { refresh_token: string }).refresh_token
    await crashAndRestart()
    const again = await refresh(second)
    expect(again.status).toBe(200)
    await again.body?.cancel()
    expect((await refresh(first)).status).toBe(401)
  }, 60_000)

  it('keeps the revocation of a family whose rotated-out token was presented (DESIGN §4)', async () => {
    const first = (await login(server.url, rootApiKey)).refresh_token
    const rotated = await refresh(first)
    expect(rotated.status).toBe(200)
    const second = ((await rotated.json()) as { refresh_token: string }).refresh_token
    await crashAndRestart()
    const replayed = await refresh(first)
    expect(replayed.status).toBe(401)
    expect(await replayed.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } })
    await crashAndRestart()
    // Presenting `first` revoked the family: `second`, never used, is dead after the crash too.
    expect((await refresh(second)).status).toBe(401)
  }, 60_000)

  it('keeps a used magic-link code used', async () => {
    const made = await (
      await root()
    ).post('/system/users', {
      username: 'erin',
      email: 'erin@example.com',
    })
    expect(made.status).toBe(201)
    await crashAndRestart()
    const from = server.stdout().length
    expect((await post('/auth/magic-link', { email: 'erin@example.com' })).status).toBe(200)
    const [, code] = await server.waitFor(/magic link for erin@example\.com: \S+\?code=(\S+)/, from)
    const verify = () => fetch(`${server.url}/auth/magic-link/verify?code=${code}`)
    const used = await verify()
    expect(used.status).toBe(200)
    await used.body?.cancel()
    await crashAndRestart()
    const reused = await verify()
    expect(reused.status).toBe(401)
    expect(await reused.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } })
  }, 60_000)
})
