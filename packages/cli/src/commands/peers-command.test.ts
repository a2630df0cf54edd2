import type { PeerStatus } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import {
  formatAge,
  formatOffset,
  formatPeerError,
  formatPeers,
  NO_PEERS_HINT,
} from './peers-command'

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
