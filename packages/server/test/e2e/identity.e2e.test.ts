import { errorBodySchema } from '@svcdb/contract'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpTestServer } from '../kit/smtp-test-server'
import type { SmtpTestServer } from '../kit/smtp-test-server'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

let server: ServerProcess
let root: ReturnType<typeof client>
const anonymous = () => client(server.url)

async function expectError(res: Response, status: number, code?: string): Promise<void> {
  expect(res.status).toBe(status)
  const body = v.parse(errorBodySchema, await res.json())
  if (code !== undefined) expect(body.error.code).toBe(code)
}

beforeAll(async () => {
  server = await startServerProcess(['--dev'])
  root = client(server.url, (await login(server.url, server.rootApiKey as string)).token)
}, 60_000)
afterAll(async () => {
  await server?.dispose()
})

describe('authentication endpoints over HTTP', () => {
  it('prints the root key only on the first start', async () => {
    const again = await startServerProcess(['--dev'], undefined)
    expect(again.rootApiKey).toMatch(/^svc_/)
    const dir = again.dataDir
    await again.stop()
    const restarted = await startServerProcess(['--dev'], dir)
    expect(restarted.rootApiKey).toBeUndefined()
    expect(restarted.stdout()).not.toContain('root api key')
    await restarted.dispose()
    const { rm } = await import('node:fs/promises')
    await rm(dir, { recursive: true, force: true })
  })

  it('keeps identity in a separate database with --auth file://, and needs none with --auth disabled', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const identityDir = await mkdtemp(join(tmpdir(), 'svcdb-identity-'))
    const fileMode = await startServerProcess(['--auth', `file://${identityDir}/id`])
    expect(fileMode.rootApiKey).toMatch(/^svc_/)
    const token = (await login(fileMode.url, fileMode.rootApiKey as string)).token
    expect((await client(fileMode.url, token).get('/system/users')).status).toBe(200)
    await fileMode.dispose()
    const { readdir } = await import('node:fs/promises')
    expect((await readdir(join(identityDir, 'id'))).length).toBeGreaterThan(0)
    await rm(identityDir, { recursive: true, force: true })

    const open = await startServerProcess(['--auth', 'disabled'])
    expect(open.rootApiKey).toBeUndefined()
    expect((await client(open.url).get('/system/users')).status).toBe(200)
    expect((await client(open.url).post('/system/gc')).status).toBe(200)
    await open.dispose()
  })

  it('exchanges keys, rotates refresh tokens and refuses bad credentials with 401', async () => {
    const tokens = await login(server.url, server.rootApiKey as string)
    const refreshed = await anonymous().post('/auth/refresh', {
      refresh_token: tokens.refresh_token,
    })
    expect(refreshed.status).toBe(200)
    expect(await refreshed.json()).toEqual({
      token: expect.any(String),
      expires_in: expect.any(Number),
      refresh_token: expect.stringMatching(/^rt_/),
    })
    await expectError(
      await anonymous().post('/auth/refresh', { refresh_token: tokens.refresh_token }),
      401,
    )
    await expectError(
      await anonymous().post('/auth/token', { api_key: 'svc_nope_nope' }),
      401,
      'UNAUTHORIZED',
    )
    await expectError(await anonymous().post('/auth/token', {}), 400, 'VALIDATION_FAILED')
  })

  it('manages users, groups and keys as root, with the spec statuses', async () => {
    const created = await root.post('/system/users', {
      username: 'bob',
      email: 'bob@example.com',
      tags: ['ops'],
    })
    expect(created.status).toBe(201)
    const bob = (await created.json()) as { user_id: string; is_active: boolean; tags: string[] }
    expect(bob).toMatchObject({ is_active: true, tags: ['ops'] })
    await expectError(await root.post('/system/users', { username: 'bob' }), 409, 'CONFLICT')
    await expectError(await root.get('/system/users/not-a-uuid'), 400)
    await expectError(await root.get('/system/users/11111111-1111-4111-8111-111111111111'), 404)
    const listed = (await (await root.get('/system/users')).json()) as {
      items: { username: string }[]
    }
    expect(listed.items.map((u) => u.username)).toContain('bob')

    const key = (await (await root.post('/auth/keys/admin', { user_id: bob.user_id })).json()) as {
      key_id: string
      api_key: string
      created_at: string
    }
    expect(new Date(key.created_at).toISOString()).toBe(key.created_at)
    const bobClient = client(server.url, (await login(server.url, key.api_key)).token)
    // Bob's token works; stats take list on /, which bob (no group, no share) lacks.
    await expectError(await bobClient.get('/system/stats'), 403, 'FORBIDDEN')
    await expectError(await bobClient.get('/system/users'), 403, 'FORBIDDEN')
    const own = await bobClient.post('/auth/keys', {
      label: 'laptop',
      rules: [{ '/docs/**': '-r--l---' }],
    })
    expect(own.status).toBe(201)
    const ownKey = (await own.json()) as {
      key_id: string
      key: string
      expires_at: number
      rules: unknown[]
    }
    expect(ownKey).toMatchObject({
      key: expect.stringMatching(/^svc_k_/),
      label: 'laptop',
      expires_at: expect.any(Number),
    })
    const mine = (await (await bobClient.get('/auth/keys')).json()) as { key_id: string }[]
    expect(Array.isArray(mine)).toBe(true)
    expect(mine.map((k) => k.key_id)).toContain(ownKey.key_id)
    expect(await (await bobClient.delete(`/auth/keys/${ownKey.key_id}`)).json()).toEqual({
      revoked: true,
      key_id: ownKey.key_id,
    })
    expect(
      ((await (await bobClient.get('/auth/keys')).json()) as { key_id: string }[]).map(
        (k) => k.key_id,
      ),
    ).not.toContain(ownKey.key_id)
    const adminList = (await (await root.get('/auth/keys/admin')).json()) as {
      items: { key_id: string; is_revoked: boolean }[]
    }
    expect(adminList.items.find((k) => k.key_id === ownKey.key_id)).toMatchObject({
      is_revoked: true,
    })
    expect(
      ((await (await root.get(`/system/users/${bob.user_id}`)).json()) as { username: string })
        .username,
    ).toBe('bob')
    const renamed = await root.patch(`/system/users/${bob.user_id}`, {
      email: 'robert@example.com',
      tags: ['ops', 'db'],
    })
    expect(await renamed.json()).toMatchObject({ email: 'robert@example.com', tags: ['ops', 'db'] })
    await expectError(await bobClient.post('/auth/keys', { expires_in_days: 3651 }), 400)
    await expectError(await bobClient.post('/auth/keys', { user_id: bob.user_id }), 403)

    const deactivated = await root.delete(`/system/users/${bob.user_id}`)
    expect(await deactivated.json()).toEqual({ deactivated: true, user_id: bob.user_id })
    await expectError(await anonymous().post('/auth/token', { api_key: key.api_key }), 401)
    await expectError(await bobClient.get('/system/stats'), 401)

    await expectError(await root.delete('/auth/keys/admin/bad id!'), 400)
    await expectError(
      await root.delete('/auth/keys/admin/00000000-0000-4000-8000-000000000000'),
      404,
    )
    expect(await (await root.delete(`/auth/keys/admin/${key.key_id}`)).json()).toEqual({
      revoked: true,
      key_id: key.key_id,
    })

    const group = {
      name: 'ops',
      default_allow: '/ops/**',
      default_deny: '/ops/secret/**',
      query_field: 'tags',
      query_operator: 'has',
      query_value: 'ops',
    }
    expect((await root.post('/system/groups', group)).status).toBe(201)
    await expectError(await root.post('/system/groups', group), 409)
    await expectError(
      await root.post('/system/groups', { ...group, name: 'bad', query_field: 'password' }),
      400,
    )
    await expectError(await root.get('/system/groups/none'), 404)
    expect((await root.patch('/system/groups/ops', { query_value: 'oncall' })).status).toBe(200)
    const groups = (await (await root.get('/system/groups')).json()) as {
      items: { name: string; query_value: string }[]
    }
    expect(groups.items).toEqual([expect.objectContaining({ name: 'ops', query_value: 'oncall' })])
    expect(((await (await root.get('/system/groups/ops')).json()) as { name: string }).name).toBe(
      'ops',
    )
    expect(await (await root.delete('/system/groups/ops')).json()).toEqual({
      deleted: true,
      name: 'ops',
    })
    await expectError(await root.delete('/system/groups/ops'), 404)
  })

  it('signs in with a magic link printed in --dev, single use, rate limited with 429', async () => {
    await root.post('/system/users', { username: 'carol', email: 'carol@example.com' })
    const from = server.stdout().length
    const asked = await anonymous().post('/auth/magic-link', { email: 'carol@example.com' })
    expect(asked.status).toBe(200)
    expect(await asked.json()).toEqual({ message: expect.any(String) })
    const [, code] = await server.waitFor(
      /magic link for carol@example\.com: \S+\?code=(\S+)/,
      from,
    )
    const verified = await anonymous().get(`/auth/magic-link/verify?code=${code}`)
    expect(verified.status).toBe(200)
    const grant = (await verified.json()) as Record<string, unknown>
    expect(grant).toEqual({ token: expect.any(String), expires_in: expect.any(Number) })
    await expectError(await anonymous().get(`/auth/magic-link/verify?code=${code}`), 401)
    // Unknown addresses get the same answer; the limit counts per address.
    expect(
      (await anonymous().post('/auth/magic-link', { email: 'nobody@example.com' })).status,
    ).toBe(200)
    let limited: Response | undefined
    for (let i = 0; i < 10 && limited === undefined; i++) {
      const res = await anonymous().post('/auth/magic-link', { email: 'carol@example.com' })
      if (res.status === 429) limited = res
    }
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/)
    await expectError(limited as Response, 429, 'RATE_LIMITED')
  })
})

describe('email endpoints over HTTP', () => {
  let smtp: SmtpTestServer
  beforeAll(async () => {
    smtp = await startSmtpTestServer({ users: { mailer: 's3cret' } })
  })
  afterAll(async () => {
    await smtp.close()
  })

  it('stores the configuration, masks secrets, and sends a test message through real SMTP', async () => {
    await expectError(await root.get('/system/email-config'), 404)
    const config = {
      provider: 'smtp',
      host: '127.0.0.1',
      port: smtp.port,
      username: 'mailer',
      password: 's3cret',
      from_address: 'svcdb@example.com',
      tls: false,
    }
    expect((await root.put('/system/email-config', config)).status).toBe(200)
    const read = (await (await root.get('/system/email-config')).json()) as Record<string, unknown>
    expect(read).toMatchObject({ provider: 'smtp', username: 'mailer', password: '••••••••' })
    expect(JSON.stringify(read)).not.toContain('s3cret')
    const sent = await root.post('/system/email-test', { to: 'ops@example.com' })
    expect(await sent.json()).toEqual({ sent: true, message: expect.any(String) })
    const mail = await smtp.nextMail()
    expect(mail.to).toEqual(['ops@example.com'])
    await root.put('/system/email-config', { ...config, password: 'wrong' })
    expect(await (await root.post('/system/email-test', { to: 'ops@example.com' })).json()).toEqual(
      {
        sent: false,
        error: expect.any(String),
      },
    )
    await expectError(
      await root.put('/system/email-config', { provider: 'smtp' }),
      400,
      'VALIDATION_FAILED',
    )
    await expectError(await root.post('/system/email-test', { to: 'not an address' }), 400)
  })
})
