import { rm } from 'node:fs/promises'
import { afterAll, expect, it } from 'vitest'
import { login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

// The server dies by SIGKILL at the auth crash point `mid-token-rotation`: the presented
// refresh token is consumed, the new one not yet stored. Whatever the crash lost, the old
// token must not come back to life, and the API key must still work.
let server: ServerProcess | undefined
let dataDir: string | undefined

afterAll(async () => {
  await server?.stop()
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
})

const refresh = (url: string, token: string) =>
  fetch(`${url}/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: token }),
  })

it('keeps a refresh token spent by a rotation cut short by a crash', async () => {
  const crashing = await startServerProcess([], undefined, {
    wrap: (command) => ['/usr/bin/env', 'SVCDB_CRASH_AT=mid-token-rotation:1', ...command],
  })
  server = crashing
  dataDir = crashing.dataDir
  const rootApiKey = crashing.rootApiKey as string
  const { refresh_token: first } = await login(crashing.url, rootApiKey)
  // The rotation reaches the point and the process kills itself before answering.
  await expect(refresh(crashing.url, first)).rejects.toThrow()
  expect(await crashing.kill('SIGTERM')).toBe('SIGKILL')

  server = await startServerProcess([], dataDir)
  const replayed = await refresh(server.url, first)
  expect(replayed.status).toBe(401)
  expect(await replayed.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } })
  // The key itself is untouched: a new session starts and rotates normally.
  const { refresh_token: next } = await login(server.url, rootApiKey)
  const rotated = await refresh(server.url, next)
  expect(rotated.status).toBe(200)
  await rotated.body?.cancel()
}, 60_000)
