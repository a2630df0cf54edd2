import { describe, expect, it } from 'vitest'
import { svcdb, useFixture } from './cli-harness'

const fx = useFixture()

const run = (args: string[], env = fx.env) => svcdb(args, { env, cwd: fx.work })
const json = async <T = Record<string, unknown>>(args: string[], env = fx.env): Promise<T> => {
  const result = await run([...args, '--json'], env)
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as T
}

describe('svcdb admin commands (built binary, live server)', () => {
  it('manages users, groups and keys; a user key is refused root commands', async () => {
    const user = await json<{ user_id: string }>([
      'users',
      'create',
      'ada',
      '--email',
      'ada@example.com',
      '--tags',
      'eng,ops',
    ])
    expect(await json(['users', 'get', user.user_id])).toMatchObject({
      username: 'ada',
      tags: ['eng', 'ops'],
    })
    expect(await json(['users', 'update', user.user_id, '--tags', 'eng'])).toMatchObject({
      tags: ['eng'],
    })
    const users = await json<{ username: string }[]>(['users', 'list'])
    expect(users.map((u) => u.username).sort()).toEqual(['ada', 'root'])
    expect((await run(['users', 'list'])).stdout).toMatch(/^USER_ID\s+USERNAME/)

    await json([
      'groups',
      'create',
      'eng',
      '--allow',
      '/eng/**',
      '--field',
      'tags',
      '--op',
      'has',
      '--value',
      'eng',
    ])
    expect(
      (await run(['groups', 'create', 'eng', '--field', 'tags', '--op', 'has', '--value', 'x']))
        .code,
    ).toBe(5)
    expect((await run(['groups', 'create', 'bad'])).code).toBe(2)
    expect(await json(['groups', 'update', 'eng', '--deny', '/eng/secret/**'])).toMatchObject({
      default_deny: '/eng/secret/**',
    })

    const admin = await json<{ api_key: string; key_id: string }>([
      'keys',
      'create',
      '--admin',
      '--user',
      user.user_id,
    ])
    const adaEnv = { ...fx.env, SVCDB_API_KEY: admin.api_key }
    expect(
      (await svcdb(['put', '-', '/eng/plan.md', '--stream'], { env: adaEnv, stdin: 'plan' })).code,
    ).toBe(0)
    expect((await run(['users', 'list'], adaEnv)).code).toBe(4)
    const own = await json<{ key: string; key_id: string }>(
      ['keys', 'create', '--label', 'ci', '--rule', '/eng/**=-r--l---', '--expires-in-days', '7'],
      adaEnv,
    )
    expect(own.key).toMatch(/^svc_k_/)
    const scopedEnv = { ...fx.env, SVCDB_API_KEY: own.key }
    expect((await run(['get', '/eng/plan.md', '-'], scopedEnv)).stdout).toBe('plan')
    expect(
      (await svcdb(['put', '-', '/eng/x.md', '--stream'], { env: scopedEnv, stdin: 'x' })).code,
    ).toBe(3)
    expect(
      (await json<{ key_id: string }[]>(['keys', 'list'], adaEnv)).map((k) => k.key_id),
    ).toContain(own.key_id)
    expect((await run(['keys', 'create', '--rule', 'nonsense'], adaEnv)).code).toBe(2)
    expect((await run(['keys', 'revoke', own.key_id], adaEnv)).code).toBe(0)
    expect((await run(['ls'], scopedEnv)).code).toBe(4)
    expect((await run(['keys', 'list', '--admin'])).stdout).toContain(admin.key_id)
    expect((await run(['keys', 'revoke', '--admin', admin.key_id])).code).toBe(0)
    expect(await json(['users', 'deactivate', user.user_id])).toMatchObject({ deactivated: true })
    expect((await run(['groups', 'delete', 'eng'])).code).toBe(0)
  })

  it('runs gc, tasks and cron, shows stats, and tails events', async () => {
    expect(await json(['gc', '--dry-run'])).toMatchObject({ dry_run: true })
    expect((await run(['gc'])).stdout).toMatch(/^reclaimed /)
    const task = await json<{ id: string }>(['tasks', 'gc', '--dry-run'])
    // The server in this process says when the task has finished (no event tells clients).
    await fx.server.waitForTask(task.id)
    expect(await json(['tasks', 'get', task.id])).toMatchObject({ status: 'completed' })
    expect((await json<{ id: string }[]>(['tasks', 'list'])).map((t) => t.id)).toContain(task.id)
    expect((await run(['tasks', 'cancel', task.id])).code).toBe(0)
    expect((await run(['tasks', 'get', 'nope'])).code).toBe(3)

    expect(
      await json(['cron', 'create', 'nightly', '0 3 * * *', 'gc', '--args', '{"dry_run":true}']),
    ).toMatchObject({ enabled: true })
    expect((await run(['cron', 'create', 'never', '0 0 30 2 *', 'gc'])).code).toBe(2)
    expect(await json(['cron', 'update', 'nightly', '--enabled', 'false'])).toMatchObject({
      enabled: false,
    })
    expect((await run(['cron', 'list'])).stdout).toContain('nightly')
    expect((await run(['cron', 'delete', 'nightly'])).code).toBe(0)

    expect(await json(['stats'])).toHaveProperty('sizes')
    expect((await run(['stats'])).stdout).toMatch(/^identity\n/)

    // The tail says on stderr when its stream is open: only then is the write sure to be seen.
    let listening!: () => void
    const opened = new Promise<void>((resolve) => (listening = resolve))
    const tail = svcdb(
      ['events', 'tail', '--events', 'entries_created', '--count', '1', '--json'],
      {
        env: fx.env,
        cwd: fx.work,
        onStderr: (text) => {
          if (text.includes('svcdb events tail: listening')) listening()
        },
      },
    )
    await opened
    expect(
      (await svcdb(['put', '-', '/tail/one.txt', '--stream'], { env: fx.env, stdin: 'x' })).code,
    ).toBe(0)
    const tailed = await tail
    expect(tailed.code, tailed.stderr).toBe(0)
    const event = JSON.parse(tailed.stdout.trim().split('\n')[0] as string) as {
      event_type: string
      payload: { entries: { path: string }[] }
    }
    expect(event.event_type).toBe('entries_created')
    expect(event.payload.entries.map((e) => e.path)).toEqual(['/tail/one.txt'])
    expect((await run(['events', 'tail', '--events', 'bogus'])).code).toBe(2)
  })

  it('prints help for every command and subcommand', async () => {
    const top = await run(['--help'])
    expect(top.code).toBe(0)
    const names = [...top.stdout.matchAll(/^ {2}([a-z]+)( …)?\s{2}/gm)].map(
      (m) => [m[1] as string, m[2] !== undefined] as const,
    )
    expect(names.length).toBeGreaterThan(20)
    // Four binaries at a time: each start costs ~0.3 s of CPU.
    const checks = names
      .filter(([name]) => name !== 'start')
      .map(([name, group]) => async () => {
        const help = await run([name, '--help'])
        expect(help.code, name).toBe(0)
        expect(help.stdout, name).toMatch(/^Usage: svcdb /)
        if (!group) return
        const subs = [...help.stdout.matchAll(/^ {2}([a-z]+)\s{2}/gm)].map((m) => m[1] as string)
        expect(subs.length, name).toBeGreaterThan(0)
        for (const sub of subs) {
          const subHelp = await run([name, sub, '--help'])
          expect(subHelp.code, `${name} ${sub}`).toBe(0)
          expect(subHelp.stdout).toContain(`Usage: svcdb ${name} ${sub}`)
        }
      })
    for (let i = 0; i < checks.length; i += 4)
      await Promise.all(checks.slice(i, i + 4).map((check) => check()))
  })
})
