import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

// Drives the built binary (the test command builds before testing).
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url))

describe('svcdb binary', () => {
  let dataDir: string
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svcdb-cli-'))
  })
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true })
  })

  it('starts the server with `svcdb start`, answers health and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'start', '--port', '0', '--data', dataDir], {
      stdio: 'pipe',
    })
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
    const url = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const match = /listening on (http:\/\/\S+)/.exec(out)
        if (match?.[1]) resolve(match[1])
      })
      child.once('close', () => reject(new Error(`exited early: ${out}`)))
    })
    const res = await fetch(`${url}/system/health`)
    expect(await res.json()).toMatchObject({ status: 'ok' })
    child.kill('SIGTERM')
    expect(await closed).toBe(0)
  })

  it('passes bad server flags through to a non-zero exit naming the flag', async () => {
    const child = spawn(process.execPath, [bin, 'start', '--port', 'abc'], { stdio: 'pipe' })
    let err = ''
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code).toBe(2)
    expect(err).toContain('--port')
  })
})
