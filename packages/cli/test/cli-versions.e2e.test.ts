import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFixture, svcdb } from './cli-harness'
import type { CliFixture } from './cli-harness'

let fx: CliFixture
let other: CliFixture

beforeAll(async () => {
  ;[fx, other] = await Promise.all([startFixture(), startFixture()])
}, 30_000)
afterAll(async () => {
  await fx?.dispose()
  await other?.dispose()
})

const run = (args: string[], target: CliFixture = fx) =>
  svcdb(args, { env: target.env, cwd: fx.work })
const json = async (args: string[], target: CliFixture = fx) => {
  const result = await run([...args, '--json'], target)
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as Record<string, unknown>
}

describe('svcdb version commands (built binary, live server)', () => {
  it('snapshots, forks, history and restore', async () => {
    await run(['put', '-', '/doc.md'])
    expect(
      (await svcdb(['put', '-', '/doc.md', '--stream'], { env: fx.env, stdin: 'v1' })).code,
    ).toBe(0)
    const snap = await json(['snapshot', 'create', 'first', '--metadata', '{"by":"test"}'])
    expect(snap).toMatchObject({ name: 'first', metadata: { by: 'test' } })
    expect((await run(['snapshot', 'create', 'first'])).code).toBe(5)
    expect((await run(['snapshot', 'create', 'x', '--metadata', 'nope'])).code).toBe(2)
    expect(
      (await svcdb(['put', '-', '/doc.md', '--stream'], { env: fx.env, stdin: 'v2' })).code,
    ).toBe(0)

    const list = (await json(['snapshot', 'list'])) as unknown as { name: string }[]
    expect(list.map((s) => s.name)).toEqual(['first'])
    const history = (await json(['history', '/doc.md'])) as unknown as { change_type: string }[]
    expect(history.length).toBeGreaterThanOrEqual(2)

    expect((await run(['restore', '/doc.md', '--snapshot', 'first'])).code).toBe(0)
    expect((await run(['get', '/doc.md', '-'])).stdout).toBe('v1')
    expect((await run(['restore', '/doc.md'])).code).toBe(2)

    expect((await run(['fork', 'create', 'trial'])).code).toBe(0)
    expect(
      (
        await svcdb(['put', '-', '/doc.md', '--stream', '--fork', 'trial'], {
          env: fx.env,
          stdin: 'forked',
        })
      ).code,
    ).toBe(0)
    expect((await run(['get', '/doc.md', '-', '--fork', 'trial'])).stdout).toBe('forked')
    expect((await run(['get', '/doc.md', '-'])).stdout).toBe('v1')
    expect((await run(['fork', 'promote', 'trial'])).code).toBe(0)
    expect((await run(['get', '/doc.md', '-'])).stdout).toBe('forked')
    expect((await run(['fork', 'abandon', 'trial'])).code).toBe(0)
    expect((await run(['fork', 'abandon', 'trial'])).code).toBe(3)
    expect((await run(['snapshot', 'restore', 'first'])).code).toBe(0)
    expect((await run(['get', '/doc.md', '-'])).stdout).toBe('v1')
    expect((await run(['snapshot', 'delete', 'first'])).code).toBe(0)
  })

  it('exports from one server and imports into another, then diffs and promotes', async () => {
    await svcdb(['put', '-', '/shared/a.txt', '--stream'], { env: fx.env, stdin: 'alpha' })
    await run(['snapshot', 'create', 'base'])
    const archive = join(fx.work, 'base.svcdb')
    const exported = await json(['export', '--snapshot', 'base', '-o', archive])
    expect(exported.size).toBe((await stat(archive)).size)
    const imported = await json(['import', archive, '--promote'], other)
    expect(imported).toMatchObject({ backup_type: 'export', head_promoted: true })
    expect((await run(['get', '/shared/a.txt', '-'], other)).stdout).toBe('alpha')

    await svcdb(['put', '-', '/shared/b.txt', '--stream'], { env: fx.env, stdin: 'beta' })
    const patch = join(fx.work, 'patch.svcdb')
    expect((await run(['diff', 'base', '-o', patch])).code).toBe(0)
    const applied = await json(['import', patch, '--promote'], other)
    expect(applied).toMatchObject({ backup_type: 'patch', head_promoted: true })
    expect((await run(['get', '/shared/b.txt', '-'], other)).stdout).toBe('beta')
    // The same patch again: the base no longer matches.
    expect((await run(['import', patch], other)).code).toBe(5)

    const head = String(imported.version_hash)
    expect((await run(['promote', head], other)).code).toBe(0)
    expect((await run(['get', '/shared/b.txt', '-'], other)).code).toBe(3)
    expect((await run(['promote', 'not-a-hash'], other)).code).toBe(2)
    expect((await readFile(archive)).length).toBeGreaterThan(0)
  })

  it('verifies, exports and imports a stopped data directory offline', async () => {
    const local = await startFixture()
    try {
      await svcdb(['put', '-', '/offline.txt', '--stream'], { env: local.env, stdin: 'kept' })
      // While the server runs, its data directory is locked.
      const busy = await svcdb(['verify', '--data', local.dataDir])
      expect(busy.code).toBe(1)
      expect(busy.stderr).toContain('in use by a running server')
      await local.stop()
      const verified = await svcdb(['verify', '--data', local.dataDir, '--json'])
      expect(verified.code, verified.stderr).toBe(0)
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true })
      const archive = join(local.work, 'offline.svcdb')
      expect((await svcdb(['export', '--data', local.dataDir, '-o', archive])).code).toBe(0)
      // Into a running server's directory: refused, nothing touched.
      const locked = await svcdb(['import', archive, '--data', other.dataDir])
      expect(locked.stderr).toContain('in use by a running server')
      // Into a fresh directory: seeds a new database with the same version.
      const { mkdtemp } = await import('node:fs/promises')
      const { tmpdir } = await import('node:os')
      const fresh = await mkdtemp(join(tmpdir(), 'svcdb-cli-seed-'))
      const seeded = await svcdb(['import', archive, '--data', fresh, '--promote', '--json'])
      expect(seeded.code, seeded.stderr).toBe(0)
      const result = JSON.parse(seeded.stdout) as { version_hash: string; head_promoted: boolean }
      expect(result.head_promoted).toBe(true)
      expect(JSON.parse((await svcdb(['verify', '--data', fresh, '--json'])).stdout)).toMatchObject(
        { ok: true },
      )
      const patch = join(local.work, 'patch.svcdb')
      expect((await svcdb(['diff', 'nosuch', '--data', local.dataDir, '-o', patch])).code).toBe(3)
      expect((await svcdb(['verify'])).code).toBe(2)
      const { rm } = await import('node:fs/promises')
      await rm(fresh, { recursive: true, force: true })
    } finally {
      await local.dispose()
    }
  })
})
