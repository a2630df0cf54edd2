import { describe, expect, it } from 'vitest'
import { parseServerArgs } from './parse-server-args'
import { DEFAULT_SERVER_CONFIG } from './server-config'

describe('parseServerArgs', () => {
  it('uses the defaults of DESIGN §7 when no flag is given', () => {
    expect(parseServerArgs([])).toEqual({ action: 'run', config: DEFAULT_SERVER_CONFIG })
    expect(DEFAULT_SERVER_CONFIG).toMatchObject({
      host: '127.0.0.1',
      port: 6830,
      dataDir: './data',
    })
  })

  it('reads every flag', () => {
    const args = parseServerArgs(
      [
        '--data',
        '/tmp/d',
        '--host',
        '::1',
        '--port',
        '0',
        '--auth',
        'file:///tmp/id',
        '--dev',
        '--node-id',
        '7',
        '--metrics-interval',
        '500ms',
        '--cors',
        'https://a.example, http://b:3000',
        '--log-level',
        'debug',
        '--webhook-allow',
        'https://hooks.example, https://*.corp.example:8443',
        '--no-console',
        '--peer',
        'office=https://office.example:6830#/projects',
        '--peer-interval',
        '3s',
      ],
      { SVCDB_PEER_OFFICE_KEY: 'svc_office' },
    )
    expect(args).toEqual({
      action: 'run',
      config: {
        dataDir: '/tmp/d',
        storage: { kind: 'embedded' },
        host: '::1',
        port: 0,
        auth: { kind: 'file', path: '/tmp/id' },
        dev: true,
        nodeId: 7,
        metricsIntervalMs: 500,
        corsOrigins: ['https://a.example', 'http://b:3000'],
        logLevel: 'debug',
        logFormat: 'auto',
        unsafePublic: false,
        webhookAllow: ['https://hooks.example', 'https://*.corp.example:8443'],
        headLogRetentionMs: 30 * 24 * 60 * 60 * 1000,
        console: false,
        peers: [
          {
            name: 'office',
            url: 'https://office.example:6830',
            scope: '/projects',
            key: 'svc_office',
          },
        ],
        peerIntervalMs: 3000,
      },
    })
  })

  it.each([
    ['30d', 30 * 86_400_000],
    ['12h', 12 * 3_600_000],
    ['90m', 90 * 60_000],
    ['500ms', 500],
    ['86400000', 86_400_000],
    ['0', 0],
  ])('reads --head-log-retention %s', (raw, ms) => {
    expect(parseServerArgs(['--head-log-retention', raw])).toMatchObject({
      config: { headLogRetentionMs: ms },
    })
  })

  it.each(['-1', '1y', '1.5d', ''])('refuses --head-log-retention %j', (raw) => {
    expect(parseServerArgs(['--head-log-retention', raw])).toMatchObject({
      action: 'error',
      message: expect.stringMatching(/--head-log-retention/),
    })
  })

  it('refuses a webhook destination that is not an http(s) origin', () => {
    const args = parseServerArgs(['--webhook-allow', 'ftp://x'])
    expect(args).toMatchObject({
      action: 'error',
      message: expect.stringMatching(/--webhook-allow/),
    })
  })

  it.each([
    [['--metrics-interval', '15'], 15_000],
    [['--metrics-interval', '2m'], 120_000],
    [['--metrics-interval', '1.5s'], 1_500],
  ])('reads durations %j', (argv, ms) => {
    expect(parseServerArgs(argv)).toMatchObject({ config: { metricsIntervalMs: ms } })
  })

  it.each([
    [['--port', 'abc'], '--port'],
    [['--port', '65536'], '--port'],
    [['--port', '-1'], '--port'],
    [['--auth', 'bogus'], '--auth'],
    [['--auth', 'file://'], '--auth'],
    [['--node-id', 'x'], '--node-id'],
    [['--metrics-interval', '0'], '--metrics-interval'],
    [['--metrics-interval', 'soon'], '--metrics-interval'],
    [['--log-level', 'loud'], '--log-level'],
    [['--cors', 'not an origin'], '--cors'],
    [['--host', 'a b'], '--host'],
    [['--data', ''], '--data'],
    [['--bogus'], '--bogus'],
  ])('refuses %j with a one-line message naming %s', (argv, flagName) => {
    const args = parseServerArgs(argv)
    expect(args.action).toBe('error')
    if (args.action !== 'error') return
    expect(args.message).toContain(flagName)
    expect(args.message).not.toContain('\n')
  })

  it('refuses --auth disabled on a public host unless --unsafe-public', () => {
    const refused = parseServerArgs(['--auth', 'disabled', '--host', '0.0.0.0'])
    expect(refused).toMatchObject({ action: 'error' })
    if (refused.action === 'error') expect(refused.message).toMatch(/--unsafe-public/)
    expect(
      parseServerArgs(['--auth', 'disabled', '--host', '0.0.0.0', '--unsafe-public']),
    ).toMatchObject({
      action: 'run',
    })
    expect(parseServerArgs(['--auth', 'disabled', '--host', 'localhost'])).toMatchObject({
      action: 'run',
    })
  })

  it('recognises help and version', () => {
    expect(parseServerArgs(['--help'])).toEqual({ action: 'help' })
    expect(parseServerArgs(['-v'])).toEqual({ action: 'version' })
  })
})
