import { describe, expect, it } from 'vitest'
import { parseServerArgs, SERVER_USAGE } from './parse-server-args'

describe('parseServerArgs reset-root-key', () => {
  it('reads the data directory, the auth mode and --revoke-others', () => {
    expect(parseServerArgs(['reset-root-key'])).toEqual({
      action: 'reset-root-key',
      config: {
        dataDir: './data',
        storage: { kind: 'embedded' },
        auth: { kind: 'self-contained' },
        revokeOthers: false,
      },
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
        storage: { kind: 'embedded' },
        auth: { kind: 'file', path: '/srv/identity' },
        revokeOthers: true,
      },
    })
  })

  it('reads --meta and --chunks (and their variables) as the server does', () => {
    const meta = 'postgres://svcdb@db:5432/svcdb'
    expect(
      parseServerArgs(['reset-root-key', '--meta', meta, '--chunks', 's3://b?region=r']),
    ).toMatchObject({
      action: 'reset-root-key',
      config: { storage: { kind: 'shared', meta, chunks: 's3://b?region=r' } },
    })
    expect(parseServerArgs(['reset-root-key'], { SVCDB_META: meta })).toMatchObject({
      config: { storage: { kind: 'shared', meta, chunks: undefined } },
    })
    expect(parseServerArgs(['reset-root-key', '--chunks', 's3://b'])).toEqual({
      action: 'error',
      message: 'reset-root-key: --chunks needs --meta: the index of the chunks lives in PostgreSQL',
    })
    expect(parseServerArgs(['reset-root-key', '--meta', 'mysql://x'])).toMatchObject({
      action: 'error',
      message: expect.stringContaining('invalid value for --meta'),
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
    expect(SERVER_USAGE).toContain(
      'reset-root-key [--data DIR | --meta URL [--chunks URL]] [--auth MODE] [--revoke-others]',
    )
  })
})
