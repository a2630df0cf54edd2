import { errorBodySchema } from '@svcdb/contract'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

let server: ServerProcess
let rootKey: string

beforeAll(async () => {
  server = await startServerProcess([])
  rootKey = server.rootApiKey as string
}, 60_000)
afterAll(async () => {
  await server?.dispose()
})

async function errorCode(res: Response): Promise<string> {
  return v.parse(errorBodySchema, await res.json()).error.code
}

describe('an API key as Authorization: Bearer over HTTP', () => {
  it('lets Prometheus scrape /system/metrics with the root key, no exchange', async () => {
    const res = await fetch(`${server.url}/system/metrics`, {
      headers: { authorization: `Bearer ${rootKey}` },
    })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('svcdb_http_requests_total')
  })

  it('applies exactly the key’s rules, and a revocation at once', async () => {
    const root = client(server.url, rootKey)
    expect((await root.put('/files/docs/a.txt', new TextEncoder().encode('a'))).status).toBe(201)
    expect((await root.put('/files/src/b.txt', new TextEncoder().encode('b'))).status).toBe(201)
    const created = await root.post('/auth/keys', { rules: [{ '/docs/**': '-r--l---' }] })
    expect(created.status).toBe(201)
    const key = (await created.json()) as { key_id: string; key: string }

    const scoped = client(server.url, key.key)
    const read = await scoped.get('/files/docs/a.txt')
    expect(read.status).toBe(200)
    expect(await read.text()).toBe('a')
    // Outside its rules a scoped key sees nothing (404), and it may not write where it reads.
    expect((await scoped.get('/files/src/b.txt')).status).toBe(404)
    const write = await scoped.put('/files/docs/c.txt', new TextEncoder().encode('c'))
    expect([403, 404]).toContain(write.status)
    // Root-only routes stay root-only.
    expect((await scoped.get('/system/users')).status).toBe(403)

    expect((await root.delete(`/auth/keys/${key.key_id}`)).status).toBe(200)
    const after = await scoped.get('/files/docs/a.txt')
    expect(after.status).toBe(401)
    expect(await errorCode(after)).toBe('UNAUTHORIZED')
  })

  it('refuses a made-up key with 401 and keeps JWTs working', async () => {
    const bogus = client(server.url, `svc_0123456789abcdef_${'A'.repeat(43)}`)
    const res = await bogus.get('/files/')
    expect(res.status).toBe(401)
    expect(await errorCode(res)).toBe('UNAUTHORIZED')
    const token = (await (
      await client(server.url).post('/auth/token', { api_key: rootKey })
    ).json()) as { token: string }
    expect((await client(server.url, token.token).get('/files/')).status).toBe(200)
  })
})
