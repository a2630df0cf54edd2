import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFixture, svcdb } from './cli-harness'
import type { CliFixture } from './cli-harness'

let fx: CliFixture
beforeAll(async () => {
  fx = await startFixture()
}, 60_000)
afterAll(async () => {
  await fx?.dispose()
})

/** How many answered requests the server's metrics count for `route`. */
async function requestsTo(route: string): Promise<number> {
  const res = await fetch(`${fx.url}/system/metrics`, {
    headers: { authorization: `Bearer ${fx.rootApiKey}` },
  })
  const text = await res.text()
  let total = 0
  for (const line of text.split('\n'))
    if (line.startsWith('svcdb_http_requests_total{') && line.includes(`route="${route}"`))
      total += Number(line.slice(line.lastIndexOf(' ') + 1))
  return total
}

describe('the CLI sends its API key as the bearer credential', () => {
  it('runs many commands without a single token exchange', async () => {
    const local = join(fx.work, 'note.txt')
    await writeFile(local, 'hello')
    const runs = [
      await svcdb(['put', local, '/notes/a.txt'], { env: fx.env }),
      await svcdb(['ls', '/notes'], { env: fx.env }),
      await svcdb(['get', '/notes/a.txt', '-'], { env: fx.env }),
      await svcdb(['stats'], { env: fx.env }),
    ]
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    expect(runs[2]?.stdout).toBe('hello')
    // The metrics call above proves the counter is live; the CLI made no exchange at all.
    expect(await requestsTo('/files/:path{.*}')).toBeGreaterThan(0)
    expect(await requestsTo('/auth/token')).toBe(0)
  })

  it('saves a profile with login and uses it, still without an exchange', async () => {
    const env = { SVCDB_CONFIG: fx.env.SVCDB_CONFIG as string }
    const login = await svcdb(['login', '--url', fx.url], { env, stdin: `${fx.rootApiKey}\n` })
    expect(login.code, login.stderr).toBe(0)
    const ls = await svcdb(['ls', '/'], { env })
    expect(ls.code, ls.stderr).toBe(0)
    expect(await requestsTo('/auth/token')).toBe(0)
  })

  it('fails with the credential exit code once the key is revoked', async () => {
    const created = await svcdb(['keys', 'create', '--json'], { env: fx.env })
    expect(created.code, created.stderr).toBe(0)
    const key = JSON.parse(created.stdout) as { key_id: string; key: string }
    const env = { ...fx.env, SVCDB_API_KEY: key.key }
    expect((await svcdb(['ls', '/'], { env })).code).toBe(0)
    const revoked = await svcdb(['keys', 'revoke', key.key_id], { env: fx.env })
    expect(revoked.code, revoked.stderr).toBe(0)
    const refused = await svcdb(['ls', '/'], { env })
    expect(refused.code).toBe(4)
    expect(refused.stderr).toMatch(/invalid|unauthori/i)
  })
})
