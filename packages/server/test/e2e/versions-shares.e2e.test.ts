import { connect } from 'node:net'
import { EventSource } from 'eventsource'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpTestServer } from '../kit/smtp-test-server'
import type { SmtpTestServer } from '../kit/smtp-test-server'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

let server: ServerProcess
let smtp: SmtpTestServer
let rootToken: string

beforeAll(async () => {
  smtp = await startSmtpTestServer()
  server = await startServerProcess([])
  rootToken = (await login(server.url, server.rootApiKey as string)).token
}, 60_000)
afterAll(async () => {
  await server?.dispose()
  await smtp?.close()
})

const text = (s: string) => new TextEncoder().encode(s)

/** `fetch` with a JSON body on any method (DELETE with a body included). */
function send(method: string, path: string, body: unknown, token = rootToken) {
  return fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

async function expectError(res: Response, status: number, code?: string): Promise<void> {
  expect(res.status).toBe(status)
  const body = (await res.json()) as { error: { code: string; message: string } }
  expect(typeof body.error.message).toBe('string')
  if (code !== undefined) expect(body.error.code).toBe(code)
}

/** Collects the events of one SSE connection as root. */
function listen(events: string) {
  const received: { type: string; data: Record<string, unknown> }[] = []
  const source = new EventSource(`${server.url}/system/events?events=${events}`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...init?.headers, authorization: `Bearer ${rootToken}` },
      }),
  })
  for (const type of events.split(','))
    source.addEventListener(type, (e) =>
      received.push({ type, data: JSON.parse(e.data) as Record<string, unknown> }),
    )
  const opened = new Promise<void>((resolve) => (source.onopen = () => resolve()))
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25))
    expect(check()).toBe(true)
  }
  return { received, opened, until, close: () => source.close() }
}

/** A user with an address, and an access token for them. */
async function userWithToken(username: string, email?: string) {
  const root = client(server.url, rootToken)
  const made = await root.post(
    '/system/users',
    email === undefined ? { username } : { username, email },
  )
  expect(made.status).toBe(201)
  const user = (await made.json()) as { user_id: string }
  const issued = await root.post('/auth/keys/admin', { user_id: user.user_id })
  expect(issued.status).toBe(201)
  const key = (await issued.json()) as { api_key: string }
  const { token } = await login(server.url, key.api_key)
  return { userId: user.user_id, token, api: client(server.url, token) }
}

describe('snapshots, forks, history and restore (built server)', () => {
  it('snapshots HEAD, reads the past, restores a path and the whole version, with events', async () => {
    const root = client(server.url, rootToken)
    const events = listen('versions_created,entries_created,entries_deleted')
    await events.opened
    await root.put('/files/story/ch1.md', text('once'))
    const created = await root.post('/versions/snapshots', { name: 'draft-1' })
    expect(created.status).toBe(201)
    const snap = (await created.json()) as { name: string; version: string }
    await events.until(() => events.received.some((e) => e.type === 'versions_created'))
    expect(events.received.find((e) => e.type === 'versions_created')?.data.payload).toMatchObject({
      kind: 'snapshot',
      name: 'draft-1',
      version: snap.version,
    })

    await root.put('/files/story/ch1.md', text('twice, longer'))
    await root.put('/files/story/ch2.md', text('more'))
    expect(await (await root.get('/files/story/ch1.md?snapshot=draft-1')).text()).toBe('once')
    expect(await (await root.get(`/files/story/ch1.md?version=${snap.version}`)).text()).toBe(
      'once',
    )
    await expectError(await root.get('/files/story/ch2.md?snapshot=draft-1'), 404, 'NOT_FOUND')

    const history = (await (await root.get('/versions/history/story/ch1.md')).json()) as {
      items: { change_type: string; snapshot?: string }[]
    }
    expect(history.items.filter((i) => i.snapshot === undefined).map((i) => i.change_type)).toEqual(
      ['modified', 'added'],
    )

    const restoredPath = await root.post('/versions/restore/story/ch1.md', { snapshot: 'draft-1' })
    expect(restoredPath.status).toBe(200)
    expect(await (await root.get('/files/story/ch1.md')).text()).toBe('once')

    events.received.length = 0
    const restored = await root.post('/versions/restore', { name: 'draft-1' })
    expect(((await restored.json()) as { head: string }).head).toBe(snap.version)
    await expectError(await root.get('/files/story/ch2.md'), 404, 'NOT_FOUND')
    // The whole-version move is published as the entries it changed.
    await events.until(() =>
      events.received.some(
        (e) =>
          e.type === 'entries_deleted' && JSON.stringify(e.data.payload).includes('/story/ch2.md'),
      ),
    )
    events.close()

    const listed = (await (await root.get('/versions/snapshots')).json()) as {
      items: { name: string }[]
    }
    expect(listed.items.map((s) => s.name)).toEqual(['draft-1'])
    await expectError(await root.post('/versions/snapshots', { name: 'draft-1' }), 409, 'CONFLICT')
    await expectError(await root.post('/versions/snapshots', { name: '../x' }), 400)
    expect((await root.delete('/versions/snapshots/draft-1')).status).toBe(200)
    await expectError(await root.delete('/versions/snapshots/draft-1'), 404, 'NOT_FOUND')
  })

  it('writes to a fork without touching HEAD, then promotes and abandons it (root only)', async () => {
    const root = client(server.url, rootToken)
    await root.put('/files/app/config.json', text('{"v":1}'))
    expect((await root.post('/versions/forks', { name: 'try-v2' })).status).toBe(201)
    expect((await root.put('/files/app/config.json?fork=try-v2', text('{"v":2}'))).status).toBe(200)
    expect(await (await root.get('/files/app/config.json')).text()).toBe('{"v":1}')
    expect(await (await root.get('/files/app/config.json?fork=try-v2')).text()).toBe('{"v":2}')

    const someone = await userWithToken('forker')
    await expectError(await someone.api.post('/versions/forks/try-v2/promote'), 403, 'FORBIDDEN')
    await expectError(await someone.api.delete('/versions/forks/try-v2'), 403, 'FORBIDDEN')
    await expectError(await someone.api.post('/versions/restore', { name: 'x' }), 403, 'FORBIDDEN')

    expect((await root.post('/versions/forks/try-v2/promote')).status).toBe(200)
    expect(await (await root.get('/files/app/config.json')).text()).toBe('{"v":2}')
    expect((await root.delete('/versions/forks/try-v2')).status).toBe(200)
    await expectError(await root.get('/files/app/config.json?fork=try-v2'), 404, 'NOT_FOUND')
    await expectError(await root.post('/versions/forks/nope/promote'), 404, 'NOT_FOUND')
  })

  it('refuses dot segments in raw history and restore paths', async () => {
    const { hostname, port } = new URL(server.url)
    const status = (line: string) =>
      new Promise<number>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () =>
          socket.write(
            `${line} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${rootToken}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
          ),
        )
        let out = ''
        socket.on('data', (d: Buffer) => (out += d.toString('latin1')))
        socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1])))
        socket.on('error', reject)
      })
    expect(await status('GET /versions/history/a/../../etc/passwd')).toBe(400)
    expect(await status('GET /versions/history/%2e%2e/x')).toBe(400)
    expect(await status('POST /versions/restore/a/%2e%2e/b')).toBe(400)
  })
})

describe('shares and share links (built server)', () => {
  it('shares a path with a user, emails them, announces it, and unshares', async () => {
    const root = client(server.url, rootToken)
    await root.put('/files/reports/q3.txt', text('numbers'))
    await root.put('/files/reports/private.txt', text('hush'))
    const bea = await userWithToken('bea', 'bea@example.com')
    await expectError(await bea.api.get('/files/reports/q3.txt'), 403, 'FORBIDDEN')

    // Without email configured the share proceeds, silently.
    const quiet = await send('POST', '/files/share', {
      paths: ['/reports/q3.txt'],
      users: [bea.userId],
      permissions: '-r------',
    })
    expect(((await quiet.json()) as { notified: number }).notified).toBe(0)
    expect(await (await bea.api.get('/files/reports/q3.txt')).text()).toBe('numbers')
    await expectError(await bea.api.get('/files/reports/private.txt'), 403, 'FORBIDDEN')

    expect(
      (
        await root.put('/system/email-config', {
          provider: 'smtp',
          host: '127.0.0.1',
          port: smtp.port,
          username: 'mailer',
          password: 'any',
          from_address: 'svcdb@example.com',
          tls: false,
        })
      ).status,
    ).toBe(200)
    const events = listen('permissions_changed')
    await events.opened
    const loud = await send('POST', '/files/share', {
      paths: ['/reports'],
      users: [bea.userId],
      permissions: '-r--l---',
    })
    expect(loud.status).toBe(200)
    expect(((await loud.json()) as { notified: number }).notified).toBe(1)
    const mail = await smtp.nextMail()
    expect(mail.to).toEqual(['bea@example.com'])
    expect(mail.decoded).toContain('/reports')
    await events.until(() => events.received.length > 0)
    expect(events.received[0]?.data.payload).toEqual({ path: '/reports' })
    events.close()
    expect(await (await bea.api.get('/files/reports/private.txt')).text()).toBe('hush')

    const shares = (await (await root.get('/files/shares?path=/reports')).json()) as {
      items: { user_id: string; permissions: string }[]
    }
    expect(shares.items).toEqual([
      expect.objectContaining({ user_id: bea.userId, permissions: '-r--l---' }),
    ])
    await expectError(await bea.api.get('/files/shares'), 403, 'FORBIDDEN')
    await expectError(
      await send('POST', '/files/share', { paths: ['/x'], permissions: '-r------' }),
      400,
      'VALIDATION_FAILED',
    )

    const removed = await send('DELETE', '/files/shares', { path: '/reports', user: bea.userId })
    expect(await removed.json()).toEqual({ removed: 1 })
    await expectError(await bea.api.get('/files/reports/private.txt'), 403, 'FORBIDDEN')
    expect(await (await bea.api.get('/files/reports/q3.txt')).text()).toBe('numbers')
  })

  it('creates share links whose keys reach only the shared paths, lists and revokes them', async () => {
    const root = client(server.url, rootToken)
    await root.put('/files/public/handout.pdf', text('%PDF-1.4 handout'))
    await root.put('/files/internal/plan.txt', text('plan'))
    const created = await root.post('/files/share-link', {
      paths: ['/public'],
      permissions: '-r--l---',
      expires_in_days: 3,
    })
    expect(created.status).toBe(201)
    const link = (await created.json()) as { key_id: string; key: string; expires_at: number }
    expect(link.expires_at).toBeLessThanOrEqual(Date.now() + 3 * 86_400_000)

    const visitor = client(server.url, (await login(server.url, link.key)).token)
    expect(await (await visitor.get('/files/public/handout.pdf')).text()).toBe('%PDF-1.4 handout')
    await expectError(await visitor.get('/files/internal/plan.txt'), 404, 'NOT_FOUND')
    await expectError(await visitor.put('/files/public/x.txt', text('x')), 404, 'NOT_FOUND')
    const top = (await (await visitor.get('/files/')).json()) as {
      items: { path: string; effective_permissions?: string }[]
    }
    expect(top.items.map((i) => i.path)).toEqual(['/public'])

    const links = (await (await root.get('/files/share-links')).json()) as {
      items: { key_id: string }[]
    }
    expect(links.items.map((l) => l.key_id)).toContain(link.key_id)
    expect((await root.delete(`/files/share-links/${link.key_id}`)).status).toBe(200)
    const refused = await fetch(`${server.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: link.key }),
    })
    expect(refused.status).toBe(401)
    await expectError(await root.delete('/files/share-links/not-a-uuid'), 400, 'VALIDATION_FAILED')
  })
})
