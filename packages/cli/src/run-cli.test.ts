import { describe, expect, it } from 'vitest'
import type { CliIo } from './cli-io'
import { isGroup } from './command-help'
import { COMMANDS } from './commands'
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

  it('gives every option of every command a sentence of help, shown by --help', async () => {
    const commands = COMMANDS.flatMap((e) =>
      isGroup(e)
        ? e.subcommands.map((c) => [`${e.name} ${c.name}`, c] as const)
        : [[e.name, e] as const],
    )
    for (const [name, command] of commands) {
      const io = capture()
      expect(await runCli([...name.split(' '), '--help'], io)).toBe(0)
      for (const [option, spec] of Object.entries(command.options ?? {})) {
        expect(spec.help, `${name} --${option}`).toMatch(/^[A-Z].{10,}\.$/s)
        expect(io.out).toContain(spec.help)
      }
    }
  })

  it('explains the permission letters in help keys, keys --help and keys create --help', async () => {
    for (const argv of [
      ['help', 'keys'],
      ['keys', '--help'],
      ['keys', 'create', '--help'],
    ]) {
      const io = capture()
      expect(await runCli(argv, io)).toBe(0)
      expect(io.out).toContain('crudlify')
      for (const line of [
        'c  create',
        'r  read',
        'u  update',
        'd  delete',
        'l  list',
        'i  invoke',
        'f  functions',
        'y  configure',
      ])
        expect(io.out, argv.join(' ')).toContain(line)
    }
    const create = capture()
    expect(await runCli(['help', 'keys', 'create'], create)).toBe(0)
    expect(create.out).toContain('--rule GLOB=FLAGS')
  })
})
