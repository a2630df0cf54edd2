import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { svcdb, useFixture } from './cli-harness'

const fx = useFixture()

const run = (args: string[], env = fx.env, stdin?: string) =>
  svcdb(args, { env, cwd: fx.work, ...(stdin === undefined ? {} : { stdin }) })
const json = async <T = Record<string, unknown>>(args: string[], env = fx.env): Promise<T> => {
  const result = await run([...args, '--json'], env)
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as T
}

describe('svcdb users, keys, whoami, shares, links, email (built binary, live server)', () => {
  it('names users by username or id, and creates keys for them', async () => {
    const alice = await json<{ user_id: string }>(['users', 'create', 'alice'])
    expect(await json(['users', 'get', 'alice'])).toMatchObject({ user_id: alice.user_id })
    expect(await json(['users', 'get', alice.user_id])).toMatchObject({ username: 'alice' })
    expect(await json(['users', 'update', 'alice', '--email', 'a@example.com'])).toMatchObject({
      email: 'a@example.com',
    })
    const missing = await run(['users', 'get', 'nobody'])
    expect(missing.code).toBe(3)
    expect(missing.stderr).toBe('svcdb users: no user named "nobody"\n')

    const key = await json<{ key: string; user_id: string }>([
      'keys',
      'create',
      '--user',
      'alice',
      '--rule',
      '/reports/**=-r--l---',
    ])
    expect(key.user_id).toBe(alice.user_id)
    const admin = await json<{ user_id: string }>(['keys', 'create', '--admin', '--user', 'alice'])
    expect(admin.user_id).toBe(alice.user_id)
    expect((await run(['keys', 'create', '--user', 'nobody'])).code).toBe(3)
    const listed = await run(['keys', 'list', '--admin'])
    expect(listed.stdout).toMatch(/\n\S+ +alice +/)

    // whoami: the scoped key speaks for alice, with its rule; the root key for root.
    const asAlice = { ...fx.env, SVCDB_API_KEY: key.key }
    expect(await json(['whoami'], asAlice)).toMatchObject({
      username: 'alice',
      is_root: false,
      scoped: true,
      rules: [{ '/reports/**': '-r--l---' }],
      url: fx.url,
      source: 'env',
    })
    const human = await run(['whoami'], asAlice)
    expect(human.stdout).toMatch(/\nusername +alice\n/)
    expect(human.stdout).toMatch(/\nrules +\/reports\/\*\*=-r--l---\n/)
    expect(await json(['whoami'])).toMatchObject({ is_root: true, scoped: false })
  })

  it('shares paths with users (by name) and groups, lists and removes them', async () => {
    await json(['users', 'create', 'bob'])
    await json(['groups', 'create', 'eng', '--field', 'tags', '--op', 'has', '--value', 'eng'])
    expect((await run(['put', '-', '/reports/q1.txt'], fx.env, 'q1')).code).toBe(0)
    const shared = await json<{ items: unknown[] }>([
      'shares',
      'add',
      '/reports',
      '--user',
      'bob',
      '--group',
      'eng',
      '--permissions',
      '-r--l---',
    ])
    expect(shared.items).toHaveLength(2)
    const listed = await run(['shares', 'list', '/reports'])
    expect(listed.stdout).toMatch(/\/reports +user bob +-r--l--- +\d{4}-/)
    expect(listed.stdout).toMatch(/\/reports +group eng +-r--l---/)
    expect(await json(['shares', 'remove', '/reports', '--user', 'bob'])).toBeDefined()
    expect((await run(['shares', 'list', '/reports'])).stdout).not.toContain('user bob')

    expect((await run(['shares', 'add', '/reports', '--user', 'bob'])).code).toBe(2)
    expect((await run(['shares', 'add', '/reports', '--permissions', '-r--l---'])).code).toBe(2)
    const bad = await run(['shares', 'add', '/reports', '--group', 'eng', '--permissions', 'rw'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--permissions: ')
    expect(
      (await run(['shares', 'add', '/reports', '--user', 'nobody', '--permissions', '-r--l---']))
        .code,
    ).toBe(3)
  })

  it('creates a share link whose key reads its paths, lists and revokes it', async () => {
    const link = await json<{ key: string; key_id: string }>(['links', 'create', '/reports'])
    const asLink = { ...fx.env, SVCDB_API_KEY: link.key }
    expect((await run(['get', '/reports/q1.txt', '-'], asLink)).stdout).toBe('q1')
    expect((await run(['links', 'list'])).stdout).toContain(link.key_id)
    expect((await run(['links', 'revoke', link.key_id])).code).toBe(0)
    expect((await run(['get', '/reports/q1.txt', '-'], asLink)).code).toBe(4)
    expect((await run(['links', 'create', '/reports', '--expires-in-days', 'x'])).code).toBe(2)
  })

  it('sets, shows (secrets masked) and tests the email settings', async () => {
    expect((await run(['email', 'set', '--host', 'smtp.example.com'])).code).toBe(2)
    const settings = {
      provider: 'smtp',
      host: '127.0.0.1',
      port: 9,
      username: 'mailer',
      password: 'hunter2',
      from_address: 'svcdb@example.com',
    }
    const file = join(fx.work, 'email.json')
    await writeFile(file, JSON.stringify(settings))
    expect(await json(['email', 'set', '--file', file, '--from-name', 'svcdb'])).toMatchObject({
      provider: 'smtp',
      from_name: 'svcdb',
    })
    const shown = await run(['email', 'get'])
    expect(shown.stdout).toMatch(/\nhost +127\.0\.0\.1\n/)
    expect(shown.stdout).not.toContain('hunter2')
    const badPort = await run(['email', 'set', '--file', file, '--port', '99999'])
    expect(badPort.code).toBe(2)
    expect(badPort.stderr).toContain('--port: ')
    expect((await run(['email', 'set', '--file', join(fx.work, 'none.json')])).code).toBe(3)
    // Nothing listens on the configured port: the test mail is not sent, exit 1.
    const test = await run(['email', 'test', 'someone@example.com'])
    expect(test.code).toBe(1)
    expect(test.stdout).toMatch(/^not sent: /)
  })
})
