import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fingerprint, pollUntil, startPeerNode } from '../kit/peer-servers'
import type { PeerNode } from '../kit/peer-servers'
import { startTcpProxy } from '../kit/tcp-proxy'
import type { TcpProxy } from '../kit/tcp-proxy'

/**
 * Issue 21: replication survives kill -9 of the side being pulled from. B follows A through a
 * proxy (A comes back on another port); while A is dead B reports it failing, and once A is
 * back B resumes from its cursor and takes what A acknowledged before and after the crash.
 */
let a: PeerNode
let b: PeerNode
let proxy: TcpProxy

beforeAll(async () => {
  a = await startPeerNode()
  proxy = await startTcpProxy({ target: { host: '127.0.0.1', port: Number(new URL(a.url).port) } })
  b = await startPeerNode({ peers: [{ ...a.link('a'), url: proxy.url }] })
}, 60_000)
afterAll(async () => {
  await b?.dispose()
  await proxy?.close()
  await a?.dispose()
})

describe('kill -9 of the peer being pulled from', () => {
  it('shows it failing while down, then resumes and converges with nothing lost', async () => {
    const first = new Uint8Array(randomBytes(200_000))
    const acknowledged = await a.write('/first.bin', first)
    await pollUntil(
      'B at A’s first version',
      () => b.peer('a'),
      (p) => p.cursor === acknowledged,
    )

    await a.kill()
    await pollUntil(
      'B to see A down',
      () => b.sync(),
      (s) => s?.failing_peers === 1,
    )
    const down = await b.peer('a')
    expect(down).toMatchObject({ state: 'failing', live: false })
    expect(down.last_error?.code).toBe('UNREACHABLE')
    // What B had stays: nothing is undone while the peer is gone.
    expect(fingerprint(await b.read('/first.bin'))).toBe(fingerprint(first))

    await a.restart()
    proxy.retarget(Number(new URL(a.server.url).port))
    const second = new Uint8Array(randomBytes(200_000))
    const latest = await a.write('/second.bin', second)
    const back = await pollUntil(
      'B at A’s version after A’s restart',
      () => b.peer('a'),
      (p) => p.cursor === latest && p.state === 'ok',
    )
    expect(back.last_success_at).toBeGreaterThan(down.last_attempt_at ?? 0)
    // The event stream comes back too (after its backoff), so changes arrive live again.
    await pollUntil(
      'B’s stream from A live again',
      () => b.peer('a'),
      (p) => p.live,
      40_000,
    )
    expect(fingerprint(await b.read('/first.bin'))).toBe(fingerprint(first))
    expect(fingerprint(await b.read('/second.bin'))).toBe(fingerprint(second))
    expect(await b.forks()).toEqual([])
    // Events A replays after the stream is back may count until the pull they trigger ends.
    await pollUntil(
      'B’s stats settled',
      () => b.sync(),
      (s) => s?.failing_peers === 0 && s.sync_lag_entries.a === 0,
    )
  }, 90_000)
})
