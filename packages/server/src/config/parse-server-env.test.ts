import { describe, expect, it } from 'vitest'
import { parseServerArgs, SERVER_USAGE } from './parse-server-args'
import { DEFAULT_SERVER_CONFIG } from './server-config'

describe('parseServerArgs with environment variables', () => {
  it('reads every option from its SVCDB_ variable', () => {
    const args = parseServerArgs([], {
      SVCDB_DATA: '/srv/svcdb',
      SVCDB_HOST: '::1',
      SVCDB_PORT: '7000',
      SVCDB_AUTH: 'file:///etc/svcdb/id',
      SVCDB_DEV: 'true',
      SVCDB_NODE_ID: '3',
      SVCDB_METRICS_INTERVAL: '2m',
      SVCDB_CORS: 'https://a.example',
      SVCDB_LOG_LEVEL: 'warn',
      SVCDB_LOG_FORMAT: 'json',
      SVCDB_WEBHOOK_ALLOW: 'https://hooks.example',
      SVCDB_UNSAFE_PUBLIC: '1',
      SVCDB_HEAD_LOG_RETENTION: '12h',
      SVCDB_CONSOLE: 'no',
      SVCDB_PEERS: 'a=http://10.0.0.1:6830,b=https://b.example',
      SVCDB_PEER_B_KEY: 'svc_b',
      SVCDB_PEER_INTERVAL: '30s',
    })
    expect(args).toEqual({
      action: 'run',
      config: {
        dataDir: '/srv/svcdb',
        storage: { kind: 'embedded' },
        host: '::1',
        port: 7000,
        auth: { kind: 'file', path: '/etc/svcdb/id' },
        dev: true,
        nodeId: 3,
        metricsIntervalMs: 120_000,
        corsOrigins: ['https://a.example'],
        logLevel: 'warn',
        logFormat: 'json',
        unsafePublic: true,
        webhookAllow: ['https://hooks.example'],
        headLogRetentionMs: 12 * 3_600_000,
        console: false,
        peers: [
          { name: 'a', url: 'http://10.0.0.1:6830' },
          { name: 'b', url: 'https://b.example', key: 'svc_b' },
        ],
        peerIntervalMs: 30_000,
      },
    })
  })

  it('lets a flag win over its variable', () => {
    const args = parseServerArgs(['--port', '7001', '--data', '/a'], {
      SVCDB_PORT: '7000',
      SVCDB_DATA: '/b',
    })
    expect(args).toMatchObject({ action: 'run', config: { port: 7001, dataDir: '/a' } })
  })

  it('treats an empty variable as unset and ignores unrelated ones', () => {
    const args = parseServerArgs([], { SVCDB_PORT: '', SVCDB_URL: 'http://x', PORT: '1' })
    expect(args).toEqual({ action: 'run', config: DEFAULT_SERVER_CONFIG })
  })

  it.each([
    [{ SVCDB_PORT: 'seventy' }, 'SVCDB_PORT'],
    [{ SVCDB_AUTH: 'ldap' }, 'SVCDB_AUTH'],
    [{ SVCDB_LOG_LEVEL: 'loud' }, 'SVCDB_LOG_LEVEL'],
    [{ SVCDB_LOG_FORMAT: 'xml' }, 'SVCDB_LOG_FORMAT'],
    [{ SVCDB_DEV: 'maybe' }, 'SVCDB_DEV'],
    [{ SVCDB_UNSAFE_PUBLIC: 'sure' }, 'SVCDB_UNSAFE_PUBLIC'],
  ])('refuses %j with a message naming %s', (env, variable) => {
    const args = parseServerArgs([], env)
    expect(args.action).toBe('error')
    if (args.action !== 'error') return
    expect(args.message).toContain(variable)
    expect(args.message).not.toContain('\n')
  })

  it('reads switches as true or false in any common spelling', () => {
    for (const off of ['0', 'false', 'NO', 'off'])
      expect(parseServerArgs([], { SVCDB_DEV: off })).toMatchObject({ config: { dev: false } })
    for (const on of ['1', 'TRUE', 'yes', 'On'])
      expect(parseServerArgs([], { SVCDB_DEV: on })).toMatchObject({ config: { dev: true } })
  })

  it('still refuses --auth disabled on a public host set through the environment', () => {
    const env = { SVCDB_AUTH: 'disabled', SVCDB_HOST: '0.0.0.0' }
    expect(parseServerArgs([], env)).toMatchObject({ action: 'error' })
    expect(parseServerArgs(['--unsafe-public'], env)).toMatchObject({ action: 'run' })
  })

  it('gives reset-root-key the data directory and auth mode of the environment', () => {
    const env = { SVCDB_DATA: '/srv/svcdb', SVCDB_AUTH: 'file:///etc/svcdb/id' }
    expect(parseServerArgs(['reset-root-key'], env)).toEqual({
      action: 'reset-root-key',
      config: {
        dataDir: '/srv/svcdb',
        storage: { kind: 'embedded' },
        auth: { kind: 'file', path: '/etc/svcdb/id' },
        revokeOthers: false,
      },
    })
    expect(parseServerArgs(['reset-root-key'], { SVCDB_AUTH: 'disabled' })).toMatchObject({
      action: 'error',
      message: expect.stringContaining('SVCDB_AUTH disabled has no keys'),
    })
  })

  it('lists every variable in the usage text', () => {
    for (const variable of [
      'SVCDB_DATA',
      'SVCDB_HOST',
      'SVCDB_PORT',
      'SVCDB_AUTH',
      'SVCDB_DEV',
      'SVCDB_NODE_ID',
      'SVCDB_METRICS_INTERVAL',
      'SVCDB_CORS',
      'SVCDB_LOG_LEVEL',
      'SVCDB_LOG_FORMAT',
      'SVCDB_WEBHOOK_ALLOW',
      'SVCDB_UNSAFE_PUBLIC',
      'SVCDB_HEAD_LOG_RETENTION',
      'SVCDB_CONSOLE',
    ])
      expect(SERVER_USAGE).toMatch(new RegExp(`^  ${variable} +--`, 'm'))
  })

  it('serves the console unless --no-console or SVCDB_CONSOLE=false says not to; the flag wins', () => {
    expect(parseServerArgs([], {})).toMatchObject({ config: { console: true } })
    expect(parseServerArgs(['--no-console'], {})).toMatchObject({ config: { console: false } })
    expect(parseServerArgs([], { SVCDB_CONSOLE: 'false' })).toMatchObject({
      config: { console: false },
    })
    expect(parseServerArgs(['--console'], { SVCDB_CONSOLE: 'off' })).toMatchObject({
      config: { console: true },
    })
    expect(parseServerArgs([], { SVCDB_CONSOLE: 'sometimes' })).toMatchObject({
      action: 'error',
      message: expect.stringContaining('SVCDB_CONSOLE'),
    })
    expect(SERVER_USAGE).toContain('--no-console')
  })
})
