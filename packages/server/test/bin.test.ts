import { spawn } from 'node:child_process'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

// Drives the built binary (the test command builds before testing).
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url))

interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

function start(args: string[]): { child: ChildProcessWithoutNullStreams; exit: Promise<Exit> } {
  const child = spawn(process.execPath, [bin, ...args], { stdio: 'pipe' })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const exit = new Promise<Exit>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
  return { child, exit }
}

function listeningUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    const onData = (d: Buffer) => {
      out += d.toString()
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match?.[1]) {
        child.stdout.off('data', onData)
        resolve(match[1])
      }
    }
    child.stdout.on('data', onData)
    child.once('close', () => reject(new Error(`server exited before listening: ${out}`)))
  })
}

describe('svcdb-server binary', () => {
  let dataDir: string
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svcdb-bin-'))
  })
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true })
  })

  it('starts on an ephemeral port, answers health and exits 0 on SIGTERM', async () => {
    const { child, exit } = start(['--port', '0', '--data', dataDir, '--log-level', 'info'])
    const url = await listeningUrl(child)
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const res = await fetch(`${url}/system/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    })
    const missing = await fetch(`${url}/no/such/route`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } })

    child.kill('SIGTERM')
    const result = await exit
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('SIGTERM received')
  })

  it('shuts down on SIGINT while a keep-alive connection stays open', async () => {
    const { child, exit } = start(['--port', '0', '--data', dataDir])
    const url = new URL(await listeningUrl(child))
    const agentReq = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/system/health',
          headers: { connection: 'keep-alive' },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode))
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(agentReq).toBe(200)
    child.kill('SIGINT')
    expect((await exit).code).toBe(0)
  })

  it('exits non-zero with a message naming --port for --port abc', async () => {
    const result = await start(['--port', 'abc']).exit
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain('--port')
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('exits non-zero with a message naming --auth for --auth bogus', async () => {
    const result = await start(['--auth', 'bogus']).exit
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--auth.*bogus/)
  })

  it('exits 1 with a clear message when the port is taken', async () => {
    const first = start(['--port', '0', '--data', dataDir])
    const port = new URL(await listeningUrl(first.child)).port
    const otherDir = await mkdtemp(join(tmpdir(), 'svcdb-bin-'))
    const second = await start(['--port', port, '--data', otherDir]).exit
    await rm(otherDir, { recursive: true, force: true })
    expect(second.code).toBe(1)
    expect(second.stderr).toMatch(/cannot start on 127\.0\.0\.1:\d+: .*EADDRINUSE/)
    // The same data directory is refused too, by its lock, and left untouched.
    const third = await start(['--port', '0', '--data', dataDir]).exit
    expect(third.code).toBe(1)
    expect(third.stderr).toMatch(/is locked: another process has it open/)
    first.child.kill('SIGTERM')
    expect((await first.exit).code).toBe(0)
  })
})
