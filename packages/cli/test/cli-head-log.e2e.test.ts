import { createClient } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import { svcdb, useFixture } from './cli-harness'

const fx = useFixture()

const run = (args: string[], stdin?: string) =>
  svcdb(args, { env: fx.env, cwd: fx.work, ...(stdin === undefined ? {} : { stdin }) })
const put = async (path: string, text: string, fork?: string) => {
  const result = await run(
    ['put', '-', path, '--stream', ...(fork === undefined ? [] : ['--fork', fork])],
    text,
  )
  expect(result.code, result.stderr).toBe(0)
}
const head = async () => {
  const result = await run(['stat', '/', '--json'])
  expect(result.code, result.stderr).toBe(0)
  return (JSON.parse(result.stdout) as { hash: string }).hash
}

describe('issue 15 §2: a fork promote never silently discards newer HEAD commits', () => {
  it('refuses naming what would be lost, --force prints the undo, the undo brings the file back, log shows both', async () => {
    await put('/base.txt', 'base')
    expect((await run(['fork', 'create', 'f2'])).code).toBe(0)
    await put('/work.txt', 'on the fork', 'f2')
    await put('/newer.txt', 'written on HEAD after the fork')
    const newer = await head()

    const refused = await run(['fork', 'promote', 'f2'])
    expect(refused.code).toBe(5)
    expect(refused.stderr).toContain(newer)
    expect(refused.stderr).toContain('1 entry changed on HEAD since')
    expect(refused.stderr).toContain('/newer.txt (added)')
    expect(refused.stderr).not.toContain('/work.txt')
    expect(refused.stderr).toContain('--force')
    expect((await run(['get', '/newer.txt', '-'])).stdout).toBe('written on HEAD after the fork')

    const forced = await run(['fork', 'promote', 'f2', '--force'])
    expect(forced.code, forced.stderr).toBe(0)
    expect(forced.stdout).toContain(`undo: svcdb promote ${newer}`)
    expect((await run(['get', '/newer.txt', '-'])).code).toBe(3)
    const promotedHead = await head()

    const undo = await run(['promote', newer])
    expect(undo.code, undo.stderr).toBe(0)
    expect(undo.stdout).toContain(`undo: svcdb promote ${promotedHead}`)
    expect((await run(['get', '/newer.txt', '-'])).stdout).toBe('written on HEAD after the fork')

    const log = await run(['log', '--json'])
    expect(log.code, log.stderr).toBe(0)
    const items = JSON.parse(log.stdout) as { cause: string; head: string; previous: string }[]
    expect(items.map(({ cause, head: h, previous }) => ({ cause, head: h, previous }))).toEqual([
      { cause: 'promote', head: newer, previous: promotedHead },
      { cause: 'fork_promote', head: promotedHead, previous: newer },
    ])
    const table = await run(['log'])
    expect(table.stdout).toMatch(/fork_promote/)
    expect(table.stdout).toContain(newer)
  })

  it('names at most 10 of the entries HEAD changed since the fork, then how many more', async () => {
    await put('/many/base.txt', 'there before the fork, so each file below shows on its own')
    expect((await run(['fork', 'create', 'many'])).code).toBe(0)
    const client = createClient({ baseUrl: fx.url, apiKey: fx.rootApiKey })
    for (let i = 10; i < 22; i++) await client.files.write(`/many/f${i}.txt`, String(i))
    await client.files.write('/many-last.txt', 'last')

    const refused = await run(['fork', 'promote', 'many'])
    expect(refused.code).toBe(5)
    expect(refused.stderr).toContain('13 entries changed on HEAD since')
    expect(refused.stderr).toContain('/many/f10.txt (added), /many/f11.txt (added)')
    expect(refused.stderr).toContain('/many/f19.txt (added) and 3 more')
    expect(refused.stderr).not.toContain('/many/f20.txt')
    expect(refused.stderr).toContain('--force')
  })
})
