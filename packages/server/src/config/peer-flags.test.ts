import { describe, expect, it } from 'vitest'
import { parseServerArgs } from './parse-server-args'
import { peerKeyVariable, peersFromFlags } from './peer-flags'

describe('peersFromFlags', () => {
  it('reads repeated --peer flags, each with its key from the environment', () => {
    const env = { SVCDB_PEER_OFFICE_KEY: 'svc_office', SVCDB_PEER_EDGE_2_KEY: 'svc_edge' }
    expect(
      peersFromFlags(
        ['office=https://office.example:6830/', 'edge-2=http://10.0.0.2:6830/db'],
        env,
      ),
    ).toEqual([
      { name: 'office', url: 'https://office.example:6830', key: 'svc_office' },
      { name: 'edge-2', url: 'http://10.0.0.2:6830/db', key: 'svc_edge' },
    ])
  })

  it('falls back to SVCDB_PEERS and leaves the key out when its variable is unset', () => {
    expect(
      peersFromFlags(undefined, { SVCDB_PEERS: ' a=http://127.0.0.1:1 , b=http://h:2 ' }),
    ).toEqual([
      { name: 'a', url: 'http://127.0.0.1:1' },
      { name: 'b', url: 'http://h:2' },
    ])
    expect(peersFromFlags([], {})).toEqual([])
  })

  it('reads a directory scope after #, with or without /**', () => {
    const [one] = peersFromFlags(['a=http://h:1#/projects/**'], {}) as { scope?: string }[]
    const [two] = peersFromFlags(['a=http://h:1#/projects/x/'], {}) as { scope?: string }[]
    const [whole] = peersFromFlags(['a=http://h:1#/'], {}) as { scope?: string }[]
    expect([one?.scope, two?.scope, whole?.scope]).toEqual(['/projects', '/projects/x', undefined])
  })

  it.each([
    ['office', 'expected NAME=URL'],
    ['-x=http://h:1', 'peer name'],
    ['a.b=http://h:1', 'peer name'],
    ['a=ftp://h:1', 'http:// or https://'],
    ['a=not a url', 'not valid'],
    ['a=http://h:1?x=1', 'takes no query'],
    ['a=http://h:1#projects', 'scope must be a directory'],
    ['a=http://h:1#/p/*.txt', 'scope must be a directory'],
    ['a=http://h:1#/p/../q', 'scope must be a directory'],
    ['a=http://h:1#/%zz', 'scope must be a directory'],
  ])('refuses %s', (spec, message) => {
    const result = peersFromFlags([spec], {})
    expect(result).toEqual({ error: expect.stringContaining(message) })
  })

  it('refuses a password in the URL without echoing it, and a name given twice', () => {
    const result = peersFromFlags(['a=http://root:s3cret@h:1'], {}) as { error: string }
    expect(result.error).toContain('SVCDB_PEER_A_KEY')
    expect(result.error).not.toContain('s3cret')
    expect(peersFromFlags(['a=http://h:1', 'A=http://h:2'], {})).toEqual({
      error: expect.stringContaining('named twice'),
    })
  })

  it('refuses two names that would read one key variable (a-b and A_B)', () => {
    for (const pair of [
      ['a-b=http://h:1', 'a_b=http://h:2'],
      ['warm-standby=http://h:1', 'WARM_STANDBY=http://h:2'],
    ])
      expect(peersFromFlags(pair, {})).toEqual({
        error: expect.stringContaining('SVCDB_PEER_'),
      })
    expect(peersFromFlags(['a-b=http://h:1', 'ab=http://h:2'], {})).toHaveLength(2)
  })

  it('names the key variable in capitals with underscores', () => {
    expect(peerKeyVariable('warm-standby')).toBe('SVCDB_PEER_WARM_STANDBY_KEY')
  })
})

describe('parseServerArgs with peers', () => {
  it('puts peers and the interval in the config, 15 s by default', () => {
    const args = parseServerArgs(['--peer', 'a=http://h:1', '--peer-interval', '2s'], {
      SVCDB_PEER_A_KEY: 'svc_k',
    })
    expect(args).toMatchObject({
      action: 'run',
      config: { peers: [{ name: 'a', url: 'http://h:1', key: 'svc_k' }], peerIntervalMs: 2000 },
    })
    expect(parseServerArgs([], {})).toMatchObject({ config: { peers: [], peerIntervalMs: 15_000 } })
    expect(parseServerArgs([], { SVCDB_PEER_INTERVAL: '500ms' })).toMatchObject({
      config: { peerIntervalMs: 500 },
    })
  })

  it('answers a one-line error naming the flag or variable at fault', () => {
    expect(parseServerArgs(['--peer', 'bad'], {})).toEqual({
      action: 'error',
      message: expect.stringMatching(/^invalid value for --peer: /),
    })
    expect(parseServerArgs([], { SVCDB_PEERS: 'x' })).toEqual({
      action: 'error',
      message: expect.stringMatching(/^invalid value for SVCDB_PEERS: /),
    })
    expect(parseServerArgs(['--peer-interval', '0'], {})).toMatchObject({ action: 'error' })
  })
})
