import { describe, expect, it } from 'vitest'
import { parseServerArgs, SERVER_USAGE } from './parse-server-args'

describe('parseServerArgs reset-root-key', () => {
  it('reads the data directory, the auth mode and --revoke-others', () => {
    expect(parseServerArgs(['reset-root-key'])).toEqual({
      action: 'reset-root-key',
      config: { dataDir: './data', auth: { kind: 'self-contained' }, revokeOthers: false },
    })
    expect(
      parseServerArgs([
        'reset-root-key',
        '--data',
        '/srv/db',
        '--auth',
        'file:///srv/identity',
        '--revoke-others',
      ]),
    ).toEqual({
      action: 'reset-root-key',
      config: {
        dataDir: '/srv/db',
        auth: { kind: 'file', path: '/srv/identity' },
        revokeOthers: true,
      },
    })
  })

  it('refuses server flags, a disabled mode and bad values, naming the flag', () => {
    expect(parseServerArgs(['reset-root-key', '--port', '1'])).toMatchObject({
      action: 'error',
      message: expect.stringMatching(/^reset-root-key: .*--port/),
    })
    expect(parseServerArgs(['reset-root-key', '--auth', 'disabled'])).toMatchObject({
      action: 'error',
      message: expect.stringContaining('--auth disabled has no keys'),
    })
    expect(parseServerArgs(['reset-root-key', '--auth', 'ldap'])).toMatchObject({
      action: 'error',
      message: expect.stringContaining('invalid value for --auth'),
    })
    expect(parseServerArgs(['reset-root-key', '--data', ' '])).toMatchObject({ action: 'error' })
    // Only the first word is a command: elsewhere it is a stray argument.
    expect(parseServerArgs(['--port', '1', 'reset-root-key'])).toMatchObject({ action: 'error' })
  })

  it('is documented in the usage, which --help prints', () => {
    expect(parseServerArgs(['reset-root-key', '--help'])).toEqual({ action: 'help' })
    expect(SERVER_USAGE).toContain('reset-root-key [--data DIR] [--auth MODE] [--revoke-others]')
  })
})
