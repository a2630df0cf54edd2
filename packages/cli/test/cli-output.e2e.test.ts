import { describe, expect, it } from 'vitest'
import { svcdb, useFixture } from './cli-harness'

const fx = useFixture()

const run = (args: string[], stdin?: string) =>
  svcdb(args, { env: fx.env, cwd: fx.work, ...(stdin === undefined ? {} : { stdin }) })

// ISO 8601 in UTC to the second: the one time format of every table.
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/

describe('svcdb human output (built binary, live server)', () => {
  it('prints stats with units and a space after every name; --json keeps raw numbers', async () => {
    expect((await run(['put', '-', '/a.txt'], 'x'.repeat(5000))).code).toBe(0)
    const stats = await run(['stats'])
    expect(stats.code).toBe(0)
    expect(stats.stdout).toMatch(/\n {2}gc_last_reclaimed_bytes +0 B\n/)
    expect(stats.stdout).toMatch(/\n {2}logical_data +4\.9 KiB\n/)
    expect(stats.stdout).toMatch(/\n {4}p99 +[\d.]+ ms\n/)
    expect(stats.stdout).toMatch(/\n {4}1m +[\d.]+ (B|KiB|MiB)\/s\n/)
    for (const line of stats.stdout.split('\n').filter((l) => l.trim() !== ''))
      expect(line.trim(), line).toMatch(/^\S+( +\S.*)?$/)
    const raw = JSON.parse((await run(['stats', '--json'])).stdout) as {
      sizes: { logical_data: number }
      health: { gc_last_reclaimed_bytes: number }
    }
    expect(raw.sizes.logical_data).toBe(5000)
    expect(raw.health.gc_last_reclaimed_bytes).toBe(0)
  })

  it('prints a created key readably and every key time in ISO 8601', async () => {
    const created = await run(['keys', 'create', '--label', 'ci', '--rule', '/docs/**=-r--l---'])
    expect(created.code).toBe(0)
    expect(created.stdout).not.toContain('[object Object]')
    expect(created.stdout).toMatch(/\nrules +\/docs\/\*\*=-r--l---\n/)
    expect(created.stdout).toMatch(new RegExp(`\\nexpires_at +${ISO.source}\\n`))
    for (const argv of [
      ['keys', 'list'],
      ['keys', 'list', '--admin'],
      ['ls', '/'],
    ]) {
      const listed = await run(argv)
      expect(listed.code).toBe(0)
      const [, ...rows] = listed.stdout.trim().split('\n')
      expect(rows.length).toBeGreaterThan(0)
      for (const row of rows) {
        expect(row, argv.join(' ')).toMatch(ISO)
        expect(row).not.toMatch(/\.\d{3}Z|\b\d{13}\b/)
      }
    }
    const user = await run(['users', 'create', 'ada'])
    expect(user.stdout).toMatch(new RegExp(`\\ncreated_at +${ISO.source}\\n`))
  })
})
