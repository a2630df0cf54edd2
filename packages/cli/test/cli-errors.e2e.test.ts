import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closedUrl, svcdb, useFixture } from './cli-harness'

const fx = useFixture()

const run = (args: string[], env = fx.env) => svcdb(args, { env, cwd: fx.work })

/** The `{"error":{"code","message"}}` a failure prints on stdout under --json. */
function jsonError(stdout: string): { code: string; message: string } {
  const parsed = JSON.parse(stdout) as { error: { code: string; message: string } }
  expect(Object.keys(parsed.error).sort()).toEqual(['code', 'message'])
  return parsed.error
}

describe('svcdb failures (built binary, live server)', () => {
  it('prints the error as JSON on stdout under --json and still exits non-zero', async () => {
    const missing = await run(['get', '/no/such/file', '-', '--json'])
    expect(missing.code).toBe(3)
    expect(jsonError(missing.stdout)).toMatchObject({ code: 'NOT_FOUND' })

    const usage = await run(['ls', '--bogus', '--json'])
    expect(usage.code).toBe(2)
    expect(jsonError(usage.stdout).code).toBe('USAGE')

    const unknown = await run(['frobnicate', '--json'])
    expect(unknown.code).toBe(2)
    expect(jsonError(unknown.stdout).message).toContain("'frobnicate'")

    const refused = await run(['ls', '--json'], {
      ...fx.env,
      SVCDB_API_KEY: 'svc_0000000000000000_bad',
    })
    expect(refused.code).toBe(4)
    expect(jsonError(refused.stdout).code).toBe('UNAUTHORIZED')

    await run(['snapshot', 'create', 'taken'])
    const conflict = await run(['snapshot', 'create', 'taken', '--json'])
    expect(conflict.code).toBe(5)
    expect(jsonError(conflict.stdout).code).toBe('CONFLICT')
  })

  it('exits 3 for a missing local file, naming it', async () => {
    const local = join(fx.work, 'not-here.txt')
    const put = await run(['put', local, '/x.txt'])
    expect(put.code).toBe(3)
    expect(put.stderr).toBe(`svcdb put: ${local}: no such file\n`)
    const imported = await run(['import', local, '--json'])
    expect(imported.code).toBe(3)
    expect(jsonError(imported.stdout)).toEqual({
      code: 'NOT_FOUND',
      message: `${local}: no such file`,
    })
    expect((await svcdb(['put', '-', '/there.txt'], { env: fx.env, stdin: 'x' })).code).toBe(0)
    const intoMissingDir = await run(['get', '/there.txt', join(fx.work, 'no', 'dir', 'x')])
    expect(intoMissingDir.code).toBe(3)
    expect(intoMissingDir.stderr).toContain('no such file or directory')
  })

  it('says the server cannot be reached when nothing listens', async () => {
    const nowhere = await closedUrl()
    const refused = await run(['stats', '--json'], { ...fx.env, SVCDB_URL: nowhere })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(`svcdb stats: cannot reach ${nowhere}: is the server running?\n`)
    expect(jsonError(refused.stdout)).toEqual({
      code: 'NETWORK_ERROR',
      message: `cannot reach ${nowhere}: is the server running?`,
    })
  })

  it('names the CLI option, not the wire field, in a validation error (exit 2)', async () => {
    const bad = await run(['keys', 'create', '--rule', '/docs/**=zzz'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^svcdb keys: VALIDATION_FAILED: --rule: /)
    expect(bad.stderr).not.toContain('rules')
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
  })
})
