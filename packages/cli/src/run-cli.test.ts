import { describe, expect, it } from 'vitest'
import type { CliIo } from './cli-io'
import { CLI_VERSION, runCli } from './run-cli'

function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
  }
  return io
}

describe('runCli', () => {
  it('prints usage listing the start command on --help and exits 0', async () => {
    const io = capture()
    expect(await runCli(['--help'], io)).toBe(0)
    expect(io.out).toMatch(/^Usage: svcdb/)
    expect(io.out).toContain('start')
  })

  it('prints usage and exits 2 without a command', async () => {
    const io = capture()
    expect(await runCli([], io)).toBe(2)
    expect(io.out).toContain('Usage')
  })

  it('prints the package version', async () => {
    const io = capture()
    expect(await runCli(['--version'], io)).toBe(0)
    expect(io.out.trim()).toBe(CLI_VERSION)
    expect(CLI_VERSION).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('refuses an unknown command with exit code 2 and names it', async () => {
    const io = capture()
    expect(await runCli(['frobnicate'], io)).toBe(2)
    expect(io.err).toContain("'frobnicate'")
  })

  it('documents --force and the undo on promote and fork promote, and lists log', async () => {
    const top = capture()
    expect(await runCli(['--help'], top)).toBe(0)
    expect(top.out).toMatch(/\n\s+log\s+HEAD moves that replaced history/)
    const fork = capture()
    expect(await runCli(['fork', 'promote', '--help'], fork)).toBe(0)
    expect(fork.out).toContain('--force')
    expect(fork.out).toContain('svcdb promote <previous>')
    const promote = capture()
    expect(await runCli(['promote', '--help'], promote)).toBe(0)
    expect(promote.out).toContain('--force')
    const log = capture()
    expect(await runCli(['log', '--help'], log)).toBe(0)
    expect(log.out).toContain('--limit')
  })
})
