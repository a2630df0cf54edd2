import { afterAll, beforeAll, expect, it } from 'vitest'
import { createClient } from '../src'
import { startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

let server: LiveServer

beforeAll(async () => {
  server = await startLiveServer()
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

it('calls a custom fetch as a plain function, as a browser window.fetch requires', async () => {
  let calls = 0
  // Like a browser's window.fetch: refuses to run as a method of any other object.
  const strictFetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
    if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation')
    calls++
    return fetch(input, init)
  } as typeof fetch
  const client = createClient({
    baseUrl: server.url,
    apiKey: server.rootApiKey,
    fetch: strictFetch,
  })
  expect((await client.system.health()).status).toBe('ok')
  await client.files.write('/custom.txt', 'ok')
  expect(await client.files.readText('/custom.txt')).toBe('ok')
  expect(calls).toBeGreaterThanOrEqual(4)
})
