import type { Client } from '@svcdb/client'
import type { PeerForgetResponse, PeerStatus } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import type { CliIo } from '../cli-io'
import type { CommandContext } from '../command'
import { runCli } from '../run-cli'
import {
  formatAge,
  formatOffset,
  formatPeerError,
  formatPeers,
  NO_PEERS_HINT,
  peersCommand,
} from './peers-command'
import { formatForgotten } from './peers-forget'

const NOW = 1_795_634_233_915

function peer(fields: Partial<PeerStatus> & { name: string }): PeerStatus {
  return {
    url: `http://${fields.name}.example:6830`,
    scope: null,
    state: 'pending',
    live: false,
    cursor: null,
    lag_entries: 0,
    last_attempt_at: null,
    last_success_at: null,
    last_error: null,
    forks_created: 0,
    clock_offset_ms: null,
    round_trip_ms: null,
    ...fields,
  }
}

describe('formatAge', () => {
  it('says how long ago, in the largest whole unit', () => {
    expect(formatAge(NOW - 3_400, NOW)).toBe('3s ago')
    expect(formatAge(NOW - 59_999, NOW)).toBe('59s ago')
    expect(formatAge(NOW - 5 * 60_000, NOW)).toBe('5m ago')
    expect(formatAge(NOW - 47 * 3_600_000, NOW)).toBe('47h ago')
    expect(formatAge(NOW - 4 * 86_400_000, NOW)).toBe('4d ago')
  })

  it('says never before the first sync, and now for a time ahead of this clock', () => {
    expect(formatAge(null, NOW)).toBe('never')
    expect(formatAge(NOW + 2_000, NOW)).toBe('0s ago')
  })
})

describe('formatOffset', () => {
  it('signs the offset so it says which clock is ahead', () => {
    expect(formatOffset(3.256)).toBe('+3.26 ms')
    expect(formatOffset(-12)).toBe('-12 ms')
    expect(formatOffset(0)).toBe('0 ms')
    expect(formatOffset(null)).toBe('-')
  })
})

describe('formatPeerError', () => {
  it('puts code and message on one line and shortens long messages', () => {
    expect(formatPeerError(null)).toBe('')
    expect(formatPeerError({ code: 'UNREACHABLE', message: 'connect\n  refused', at: NOW })).toBe(
      'UNREACHABLE: connect refused',
    )
    const long = formatPeerError({ code: 'CORRUPT', message: 'x'.repeat(200), at: NOW })
    expect(long).toHaveLength(60)
    expect(long).toMatch(/^CORRUPT: x+…$/)
  })
})

describe('formatPeers', () => {
  it('prints a one-line hint when no peer is configured', () => {
    expect(formatPeers([], NOW)).toBe(NO_PEERS_HINT)
    expect(NO_PEERS_HINT).toBe('no peers configured: start the server with --peer NAME=URL\n')
  })

  it('shows one aligned row per peer under upper-case headings', () => {
    const text = formatPeers(
      [
        peer({
          name: 'cloud',
          state: 'ok',
          live: true,
          lag_entries: 0,
          last_success_at: NOW - 3_000,
          clock_offset_ms: 1.5,
          round_trip_ms: 0.42,
        }),
        peer({
          name: 'office-2',
          state: 'failing',
          lag_entries: 1234,
          last_success_at: NOW - 7 * 60_000,
          clock_offset_ms: -250,
          round_trip_ms: 31,
          last_error: { code: 'UNREACHABLE', message: 'connect ECONNREFUSED', at: NOW - 1_000 },
        }),
        peer({ name: 'edge' }),
      ],
      NOW,
    )
    expect(text.split('\n')).toEqual([
      'NAME      STATE    LIVE   LAG  LAST SYNC   OFFSET      RTT  LAST ERROR',
      'cloud     ok       yes      0  3s ago     +1.5 ms  0.42 ms',
      'office-2  failing  no    1234  7m ago     -250 ms    31 ms  UNREACHABLE: connect ECONNREFUSED',
      'edge      pending  no       0  never            -        -',
      '',
    ])
  })
})

describe('formatForgotten', () => {
  it('names the peer and everything dropped, on one line', () => {
    expect(formatForgotten({ name: 'office', removed: ['peer/office', 'readable/office'] })).toBe(
      'forgot peer office: dropped peer/office, readable/office\n',
    )
    expect(formatForgotten({ name: 'x', removed: [] })).toBe('forgot peer x: dropped nothing\n')
  })
})

/** A context whose client answers `forgetPeer` and `peers` with fixed values, and records calls. */
function recordingContext(json: boolean) {
  const calls: string[] = []
  let out = ''
  const client = {
    system: {
      async forgetPeer(name: string): Promise<PeerForgetResponse> {
        calls.push(`forgetPeer ${name}`)
        return { name, removed: [`peer/${name}`] }
      },
      async peers(): Promise<PeerStatus[]> {
        calls.push('peers')
        return []
      },
    },
  } as unknown as Client
  const ctx = {
    json,
    client: async () => client,
    print(value: unknown, human: () => string) {
      out += json ? `${JSON.stringify(value)}\n` : human()
    },
  } as unknown as CommandContext
  return { ctx, calls, out: () => out }
}

describe('peersCommand', () => {
  it('forgets the named peer with `forget NAME`, printing one line or the answer as JSON', async () => {
    const human = recordingContext(false)
    await peersCommand.run(['forget', 'office'], {}, human.ctx)
    expect(human.calls).toEqual(['forgetPeer office'])
    expect(human.out()).toBe('forgot peer office: dropped peer/office\n')

    const json = recordingContext(true)
    await peersCommand.run(['forget', 'office'], {}, json.ctx)
    expect(JSON.parse(json.out())).toEqual({ name: 'office', removed: ['peer/office'] })
  })

  it('still prints the status without arguments', async () => {
    const status = recordingContext(false)
    await peersCommand.run([], {}, status.ctx)
    expect(status.calls).toEqual(['peers'])
    expect(status.out()).toBe(NO_PEERS_HINT)
  })
})

function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
  }
  return io
}

describe('svcdb peers forget on the command line', () => {
  it('documents forget in the help of peers and of peers forget', async () => {
    for (const argv of [
      ['peers', '--help'],
      ['peers', 'forget', '--help'],
      ['help', 'peers', 'forget'],
    ]) {
      const io = capture()
      expect(await runCli(argv, io), argv.join(' ')).toBe(0)
      expect(io.out).toMatch(/^Usage: svcdb peers \[forget <name>\] \[options\]\n/)
      expect(io.out).toContain('forget <name> drops what the server kept of a peer')
    }
  })

  it('refuses a missing name, an unknown verb and extra arguments with exit 2 before connecting', async () => {
    // Nothing listens on port 9 of loopback: a command that tried to connect would fail with 1.
    const env = { SVCDB_URL: 'http://127.0.0.1:9', SVCDB_API_KEY: 'svc_unused' }
    const cases: [string[], string][] = [
      [['peers', 'forget'], 'svcdb peers: expected a peer name: peers forget <name>\n'],
      [
        ['peers', 'drop', 'x'],
        "svcdb peers: unknown subcommand 'drop'; run `svcdb peers --help`\n",
      ],
      [
        ['peers', 'forget', 'a', 'b'],
        'svcdb peers: expected 0 to 2 argument(s): peers [forget <name>]\n',
      ],
    ]
    for (const [argv, stderr] of cases) {
      const io = capture()
      expect(await runCli(argv, io, { env }), argv.join(' ')).toBe(2)
      expect(io.err).toBe(stderr)
      expect(io.out).toBe('')
    }
  })
})
