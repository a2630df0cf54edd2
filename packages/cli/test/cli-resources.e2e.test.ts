import { describe, expect, it } from 'vitest'
import { svcdb, useFixture } from './cli-harness'

// The list/get/remove subcommands built from rows by `resource-commands.ts`, for every
// resource that uses them: what each prints for people and under --json, and how each fails.

const fx = useFixture()

const run = (args: string[]) => svcdb(args, { env: fx.env, cwd: fx.work })

/** Runs a command that must succeed and returns what it printed. */
async function ok(args: string[]): Promise<string> {
  const result = await run(args)
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return result.stdout
}

const json = async <T>(args: string[]): Promise<T> => JSON.parse(await ok([...args, '--json'])) as T

/** The heading line of a human table, as `formatTable` spaces it. */
const headingOf = (table: string) => table.split('\n')[0]?.split(/\s{2,}/)

describe('svcdb resource commands (built binary, live server)', () => {
  it('users: create, list, get by username or id, deactivate', async () => {
    const user = await json<{ user_id: string }>(['users', 'create', 'grace', '--tags', 'ops'])
    const table = await ok(['users', 'list'])
    expect(headingOf(table)).toEqual(['USER_ID', 'USERNAME', 'EMAIL', 'ACTIVE', 'TAGS'])
    expect(table).toMatch(new RegExp(`^${user.user_id}\\s+grace\\s+yes\\s+ops$`, 'm'))
    expect(await ok(['users', 'get', 'grace'])).toMatch(
      new RegExp(`^user_id {17}${user.user_id}\nusername {16}grace\n`),
    )
    expect(await json(['users', 'get', user.user_id])).toMatchObject({ username: 'grace' })
    expect(await ok(['users', 'deactivate', 'grace'])).toBe(`deactivated ${user.user_id}\n`)
    expect(await json(['users', 'get', 'grace'])).toMatchObject({ is_active: false })
  })

  it('groups: create, list, get, delete', async () => {
    await ok([
      'groups',
      'create',
      'ops',
      '--allow',
      '/ops/**',
      ...['--field', 'tags', '--op', 'has', '--value', 'ops'],
    ])
    const table = await ok(['groups', 'list'])
    expect(headingOf(table)).toEqual(['NAME', 'ALLOW', 'DENY', 'MEMBERS'])
    expect(table).toMatch(/^ops\s+\/ops\/\*\*\s+tags has ops$/m)
    expect(await json<{ name: string }[]>(['groups', 'list'])).toEqual([
      expect.objectContaining({ name: 'ops', default_allow: '/ops/**' }),
    ])
    expect(await ok(['groups', 'get', 'ops'])).toMatch(/^name {20}ops\n/)
    expect(await ok(['groups', 'delete', 'ops'])).toBe('deleted group ops\n')
    expect(await json(['groups', 'list'])).toEqual([])
  })

  it('cron: create, list, delete', async () => {
    await ok(['cron', 'create', 'nightly', '0 3 * * *', 'gc'])
    const table = await ok(['cron', 'list'])
    expect(headingOf(table)).toEqual(['ID', 'SCHEDULE', 'TYPE', 'ENABLED', 'NEXT RUN'])
    expect(table).toMatch(/^nightly {2}0 3 \* \* \* {2}gc {4}yes {6}\S+Z$/m)
    expect(await json(['cron', 'delete', 'nightly'])).toEqual({ id: 'nightly', deleted: true })
    expect(await json(['cron', 'list'])).toEqual([])
  })

  it('tasks: list, get, cancel', async () => {
    const id = (await ok(['tasks', 'gc', '--dry-run'])).trim()
    const table = await ok(['tasks', 'list'])
    expect(headingOf(table)).toEqual(['ID', 'TYPE', 'STATUS', 'PROGRESS', 'CREATED'])
    expect(table).toMatch(new RegExp(`^${id}\\s+gc\\s`, 'm'))
    expect(await ok(['tasks', 'get', id])).toMatch(new RegExp(`^id {22}${id}\ntask_type {15}gc\n`))
    expect(await json(['tasks', 'get', id])).toMatchObject({ id, task_type: 'gc' })
    expect(await ok(['tasks', 'cancel', id])).toBe(`${id} cancelled\n`)
  })

  it('snapshots: create, list, delete', async () => {
    const [name, version] = (await ok(['snapshot', 'create', 'before'])).trim().split(/\s+/)
    expect(name).toBe('before')
    const table = await ok(['snapshot', 'list'])
    expect(headingOf(table)).toEqual(['NAME', 'CREATED', 'VERSION'])
    expect(table).toMatch(new RegExp(`^before\\s+\\S+Z\\s+${version}$`, 'm'))
    expect(await ok(['snapshot', 'delete', 'before'])).toBe('deleted snapshot before\n')
    expect(await json(['snapshot', 'list'])).toEqual([])
  })

  it('forks: create, list, abandon', async () => {
    const [, version] = (await ok(['fork', 'create', 'trial'])).trim().split(/\s+/)
    const table = await ok(['fork', 'list'])
    expect(headingOf(table)).toEqual(['NAME', 'CREATED', 'VERSION', 'BASE'])
    expect(table).toMatch(
      new RegExp(`^trial\\s+\\S+Z\\s+${version}\\s+${version?.slice(0, 12)}$`, 'm'),
    )
    expect(await json(['fork', 'list'])).toEqual([expect.objectContaining({ name: 'trial' })])
    expect(await ok(['fork', 'abandon', 'trial'])).toBe('abandoned fork trial\n')
    expect(await json(['fork', 'list'])).toEqual([])
  })

  it('links: create, list, revoke', async () => {
    const link = await json<{ key_id: string }>(['links', 'create', '/reports'])
    const table = await ok(['links', 'list'])
    expect(headingOf(table)).toEqual(['KEY_ID', 'PERMISSIONS', 'EXPIRES', 'PATHS'])
    expect(table).toMatch(new RegExp(`^${link.key_id}\\s+-r--l---\\s+\\S+Z\\s+/reports$`, 'm'))
    expect(await ok(['links', 'revoke', link.key_id])).toBe(`revoked ${link.key_id}\n`)
    expect(await json(['links', 'list'])).toEqual([])
  })

  it.each([
    [['tasks', 'get', 'nope'], 3, 'svcdb tasks: NOT_FOUND: no such task: nope'],
    [['tasks', 'cancel', 'nope'], 3, 'svcdb tasks: NOT_FOUND: no such task: nope'],
    [['cron', 'delete', 'nope'], 3, 'svcdb cron: NOT_FOUND: no such cron schedule: nope'],
    [['users', 'get', 'nobody'], 3, 'svcdb users: no user named "nobody"'],
    [['users', 'deactivate', 'nobody'], 3, 'svcdb users: no user named "nobody"'],
    [['groups', 'get', 'nope'], 3, 'svcdb groups: NOT_FOUND: no such group'],
    [['groups', 'delete', 'nope'], 3, 'svcdb groups: NOT_FOUND: no such group'],
    [
      ['snapshot', 'delete', 'nope'],
      3,
      'svcdb snapshot: NOT_FOUND: snapshot "nope" does not exist',
    ],
    [['fork', 'abandon', 'nope'], 3, 'svcdb fork: NOT_FOUND: fork "nope" does not exist'],
    [
      ['links', 'revoke', '00000000-0000-4000-8000-000000000000'],
      3,
      'svcdb links: NOT_FOUND: no such share link',
    ],
    [['links', 'revoke', 'nope'], 2, 'svcdb links: VALIDATION_FAILED: key_id: must be a UUID'],
  ] as const)('svcdb %j: exits %i, printing what is missing', async (args, code, message) => {
    const result = await run([...args])
    expect(result).toEqual({ code, stdout: '', stderr: `${message}\n` })
  })

  it('prints the failure as JSON on stdout under --json', async () => {
    const result = await run(['groups', 'get', 'nope', '--json'])
    expect(result.code).toBe(3)
    expect(JSON.parse(result.stdout)).toEqual({
      error: { code: 'NOT_FOUND', message: 'NOT_FOUND: no such group' },
    })
  })

  it.each([
    [['tasks', 'list', 'extra'], 'svcdb tasks: expected 0 argument(s): list '],
    [['tasks', 'get'], 'svcdb tasks: expected 1 argument(s): get <id>'],
    [['users', 'deactivate'], 'svcdb users: expected 1 argument(s): deactivate <user>'],
    [['links', 'revoke', 'a', 'b'], 'svcdb links: expected 1 argument(s): revoke <key_id>'],
  ] as const)('svcdb %j: a wrong number of arguments is a usage error', async (args, message) => {
    expect(await run([...args])).toEqual({ code: 2, stdout: '', stderr: `${message}\n` })
  })
})
