import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { SessionMeta } from '../src'
import { eventually } from './app-harness'
import { useLiveSvcdb } from './e2e-fixture'

const BIN = fileURLToPath(new URL('../dist/main.js', import.meta.url))

const fx = useLiveSvcdb()

/** Runs the built binary with `env`; collects its output and exit code. */
function run(env: Record<string, string>) {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first`)
  const child: ChildProcess = spawn(process.execPath, [BIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    child,
    exit,
    stdout: () => stdout,
    stderr: () => stderr,
  }
}

describe('the sessions-app binary', () => {
  it('serves against svcdb from SVCDB_URL and SVCDB_API_KEY, and stops on SIGTERM', async () => {
    const bin = run({ SVCDB_URL: fx.svcdb.url, SVCDB_API_KEY: fx.svcdb.appKey, PORT: '0' })
    try {
      const url = await eventually(
        async () => /listening on (http:\/\/\S+),/.exec(bin.stdout())?.[1],
        10_000,
      )
      await eventually(async () => (bin.stdout().includes('caught up') ? true : undefined))
      const submitted = await fetch(`${url}/api/v1/sessions`, {
        method: 'POST',
        body: JSON.stringify({ id: 'from-bin', title: 'via the binary' }),
      })
      expect(submitted.status).toBe(201)
      const meta = await eventually(async () => {
        const body = (await (
          await fetch(`${url}/api/v1/sessions/from-bin/meta`)
        ).json()) as SessionMeta
        return body.status === 'dispatched' ? body : undefined
      })
      expect(meta).toMatchObject({ id: 'from-bin', title: 'via the binary' })
      bin.child.kill('SIGTERM')
      expect(await bin.exit).toBe(0)
    } finally {
      bin.child.kill('SIGKILL')
    }
  })

  it('exits 2 naming the missing variable', async () => {
    const bin = run({ SVCDB_URL: fx.svcdb.url })
    expect(await bin.exit).toBe(2)
    expect(bin.stderr()).toContain('SVCDB_API_KEY is not set')
  })

  it('exits 1 when svcdb refuses its key', async () => {
    const bin = run({ SVCDB_URL: fx.svcdb.url, SVCDB_API_KEY: 'svc_k_wrong', PORT: '0' })
    expect(await bin.exit).toBe(1)
    expect(bin.stderr()).toContain('cannot follow svcdb events')
  })
})
