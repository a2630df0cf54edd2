import { randomBytes } from 'node:crypto'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createClient } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import { bin, closedUrl, svcdb, useFixture } from './cli-harness'

const fx = useFixture()

const run = (args: string[], stdin?: string | Buffer) =>
  svcdb(args, { env: fx.env, cwd: fx.work, ...(stdin === undefined ? {} : { stdin }) })

describe('svcdb file commands (built binary, live server)', () => {
  it('puts, gets, lists, stats, moves, copies, links and removes', async () => {
    const local = join(fx.work, 'report.bin')
    const bytes = randomBytes(300_000)
    await writeFile(local, bytes)
    const put = await run(['put', local, 'docs/report.bin', '--json'])
    expect(put.code).toBe(0)
    // Piped: no progress bar on stderr.
    expect(put.stderr).toBe('')
    expect(JSON.parse(put.stdout)).toMatchObject({ path: '/docs/report.bin', size: bytes.length })

    expect((await run(['put', '-', '/docs/note.txt', '--stream'], 'from stdin')).code).toBe(0)
    const note = await run(['get', '/docs/note.txt', '-'])
    expect(note.stdout).toBe('from stdin')

    const got = await run(['get', '/docs/report.bin', join(fx.work, 'copy.bin')])
    expect(got.code).toBe(0)
    expect((await readFile(join(fx.work, 'copy.bin'))).equals(bytes)).toBe(true)
    const ranged = await run(['get', '/docs/note.txt', '-', '--range', '5-9'])
    expect(ranged.stdout).toBe('stdin')

    const ls = await run(['ls', '/docs'])
    expect(ls.stdout.split('\n')[0]).toMatch(/^TYPE\s+SIZE\s+UPDATED\s+PATH$/)
    expect(ls.stdout).toContain('/docs/report.bin')
    const listed = JSON.parse((await run(['ls', '/', '-r', '--json'])).stdout) as { path: string }[]
    expect(listed.map((e) => e.path).sort()).toEqual(['/docs/note.txt', '/docs/report.bin'])

    expect(JSON.parse((await run(['stat', '/docs', '--json'])).stdout)).toMatchObject({
      entry_type: 'directory',
    })
    expect((await run(['mv', '/docs/note.txt', '/notes/note.txt'])).code).toBe(0)
    expect((await run(['cp', '/notes/note.txt', '/docs/report.bin', '/copies'])).code).toBe(0)
    expect((await run(['ln', '/latest', '/copies/note.txt'])).code).toBe(0)
    expect((await run(['get', '/latest', '-'])).stdout).toBe('from stdin')
    expect((await run(['rm', '/copies'])).code).toBe(5)
    expect((await run(['rm', '-r', '/copies'])).code).toBe(0)
    expect((await run(['get', '/latest', '-'])).code).toBe(3)
  })

  it('answers with documented exit codes and one-line errors', async () => {
    const missing = await run(['get', '/nothing/here', '-'])
    expect(missing.code).toBe(3)
    expect(missing.stderr).toMatch(/^svcdb get: NOT_FOUND: /)
    const refused = await svcdb(['ls', '/'], {
      env: { ...fx.env, SVCDB_API_KEY: 'svc_0000000000000000_bad' },
    })
    expect(refused.code).toBe(4)
    expect((await run(['ls', '/', '--bogus'])).code).toBe(2)
    expect((await run(['put', 'only-one-arg'])).code).toBe(2)
    expect((await run(['frobnicate'])).code).toBe(2)
    const nowhere = await closedUrl()
    const unreachable = await svcdb(['ls'], { env: { ...fx.env, SVCDB_URL: nowhere } })
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toBe(`svcdb ls: cannot reach ${nowhere}: is the server running?\n`)
  })

  it('draws a progress bar on a terminal only', async () => {
    const local = join(fx.work, 'big.bin')
    await writeFile(local, randomBytes(2_000_000))
    const command = `${process.execPath} ${bin} put ${local} /big.bin`
    // `script` gives the binary a pseudo-terminal, as an interactive shell would. Spawned
    // asynchronously: the server answering the binary runs in this process.
    const { spawn } = await import('node:child_process')
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, ...fx.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve))
    const tty = { status, stdout: output }
    expect(tty.status).toBe(0)
    expect(tty.stdout).toMatch(/put big\.bin \[[=\- ]*\] *100%/)
    const piped = await run(['put', local, '/big2.bin'])
    expect(piped.stderr).toBe('')
  })

  it('logs in to a profile kept private, then uses it without env', async () => {
    const config = join(fx.work, 'profiles.json')
    const env = { SVCDB_CONFIG: config }
    const login = await svcdb(['login', '--url', fx.url, '--profile', 'lab'], {
      env,
      stdin: `${fx.rootApiKey}\n`,
    })
    expect(login.code).toBe(0)
    expect((await stat(config)).mode & 0o777).toBe(0o600)
    const saved = JSON.parse(await readFile(config, 'utf8')) as { default: string }
    expect(saved.default).toBe('lab')
    const stats = await svcdb(['stats', '--json'], { env })
    expect(stats.code).toBe(0)
    expect(JSON.parse(stats.stdout)).toHaveProperty('counts')
    const wrong = await svcdb(['login', '--url', fx.url, '--api-key', 'svc_nope'], { env })
    expect(wrong.code).toBe(4)
    // A share link may not read stats (issue 23), yet it logs in.
    const link = await createClient({
      baseUrl: fx.url,
      apiKey: fx.rootApiKey,
    }).files.shares.createLink({ paths: ['/docs'], permissions: '-r--l---' })
    const shared = await svcdb(['login', '--url', fx.url, '--profile', 'link'], {
      env,
      stdin: `${link.key}\n`,
    })
    expect(shared.code).toBe(0)
    expect((await svcdb(['ls', '--profile', 'nosuch'], { env })).code).toBe(2)
  })
})
