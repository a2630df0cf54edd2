import { createClient } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import { svcdb, useFixture } from './cli-harness'

const fx = useFixture()

const run = (args: string[], stdin?: string) =>
  svcdb(args, { env: fx.env, cwd: fx.work, ...(stdin === undefined ? {} : { stdin }) })

describe('svcdb query (built binary, live server)', () => {
  it('queries by scan, then by the index its configuration builds', async () => {
    for (const [name, doc] of [
      ['a.json', { kind: 'bug', points: 3 }],
      ['b.json', { kind: 'feature', points: 8 }],
      ['c.json', { kind: 'bug', points: 1 }],
    ] as const)
      expect(
        (await run(['put', '-', `/issues/${name}`, '--stream'], JSON.stringify(doc))).code,
      ).toBe(0)
    const where = JSON.stringify({ field: '/kind', op: 'eq', value: 'bug' })
    const scanned = await run(['query', '/issues', '--where', where, '--json'])
    expect(scanned.code, scanned.stderr).toBe(0)
    expect(JSON.parse(scanned.stdout)).toMatchObject({ plan: 'scan' })

    const config = JSON.stringify({
      indexes: [
        { field: '/kind', type: 'string' },
        { field: '/points', type: 'number' },
      ],
    })
    expect((await run(['put', '-', '/issues/.svcdb/indexes.json', '--stream'], config)).code).toBe(
      0,
    )
    // The server builds the index in a `reindex` task it enqueues itself once the configuration
    // lands. Nothing tells of a task's end (no event): its state is only read through the API,
    // so it is polled, and the planner is then asked once.
    const client = createClient({ baseUrl: fx.url, apiKey: fx.rootApiKey })
    const reindex = async () =>
      (await client.tasks.list()).find(
        (t) => t.task_type === 'reindex' && t.args.path === '/issues',
      )?.status
    await expect.poll(reindex, { timeout: 15_000 }).toBe('completed')
    const indexed = await run(['query', '/issues', '--where', where, '--json'])
    expect(indexed.code, indexed.stderr).toBe(0)
    expect(JSON.parse(indexed.stdout)).toMatchObject({ plan: 'index' })

    const ordered = await run([
      'query',
      '/issues',
      '--order-by',
      '/points',
      '--desc',
      '--all',
      '--json',
    ])
    expect((JSON.parse(ordered.stdout) as { name: string }[]).map((i) => i.name)).toEqual([
      'b.json',
      'a.json',
      'c.json',
    ])
    const table = await run(['query', '/issues', '--where', where, '--limit', '1'])
    expect(table.stdout).toMatch(/^SIZE\s+UPDATED\s+PATH\n/)
    expect(table.stdout).toContain('more: --after ')
    expect(table.stderr).toBe('plan: index\n')

    expect((await run(['query', '/issues', '--where', '{nope'])).code).toBe(2)
    const bad = await run([
      'query',
      '/issues',
      '--where',
      JSON.stringify({ field: '/points', op: 'gt', value: 'x' }),
    ])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('BAD_REQUEST')
    const badConfig = await run(
      ['put', '-', '/issues/.svcdb/indexes.json', '--stream'],
      '{"indexes": 3}',
    )
    expect(badConfig.code).toBe(2)
    expect(badConfig.stderr).toContain('invalid index configuration')
  })
})
