import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fingerprint, pollUntil, startPeerNode } from '../kit/peer-servers'
import type { PeerNode } from '../kit/peer-servers'
import { startTcpProxy } from '../kit/tcp-proxy'
import type { TcpProxy } from '../kit/tcp-proxy'

/**
 * Issue 21: B pulls from A through a TCP proxy; cutting it is a partition (connections reset,
 * no HTTP answer). B must report the peer failing, then catch up without losing anything.
 */
let a: PeerNode
let b: PeerNode
let proxy: TcpProxy

beforeAll(async () => {
  a = await startPeerNode()
  const port = Number(new URL(a.url).port)
  proxy = await startTcpProxy({ target: { host: '127.0.0.1', port } })
  b = await startPeerNode({ peers: [{ ...a.link('a'), url: proxy.url }] })
}, 60_000)
afterAll(async () => {
  await b?.dispose()
  await proxy?.close()
  await a?.dispose()
})

describe('a partition between two peers', () => {
  it('shows the peer failing while cut, and catches up with nothing lost once restored', async () => {
    const before = new Uint8Array(randomBytes(300_000))
    await a.write('/before.bin', before)
    await pollUntil(
      'B to hold /before.bin',
      async () => fingerprint(await b.read('/before.bin')),
      (f) => f === fingerprint(before),
    )
    await pollUntil(
      'B’s stats to show peer a healthy',
      () => b.sync(),
      (s) => s?.failing_peers === 0 && s.sync_lag_entries.a === 0,
    )

    proxy.cut()
    const during = new Uint8Array(randomBytes(1_200_000))
    await a.write('/during.bin', during)
    const cut = await pollUntil(
      'B’s stats to count peer a failing',
      () => b.sync(),
      (s) => s?.failing_peers === 1,
    )
    expect(cut?.failing_peers).toBe(1)
    const failing = await b.peer('a')
    expect(failing.state).toBe('failing')
    expect(failing.live).toBe(false)
    expect(failing.last_error).toEqual({
      code: expect.any(String) as string,
      message: expect.any(String) as string,
      at: expect.any(Number) as number,
    })
    // The proxy was B's only way to A.
    expect(await b.read('/during.bin')).toBeUndefined()

    proxy.restore()
    const healed = await pollUntil(
      'B’s stats to show peer a caught up again',
      () => b.sync(),
      (s) => s?.failing_peers === 0 && s.sync_lag_entries.a === 0 && s.active_peers === 1,
    )
    expect(healed).toMatchObject({ active_peers: 1, failing_peers: 0, sync_lag_entries: { a: 0 } })
    expect(fingerprint(await b.read('/during.bin'))).toBe(fingerprint(during))
    expect(fingerprint(await b.read('/before.bin'))).toBe(fingerprint(before))
    expect(await b.headPrefix()).toBe(await a.headPrefix())
    const peer = await b.peer('a')
    expect(peer.state).toBe('ok')
    // The cause of the partition stays readable after the recovery.
    expect(peer.last_error?.at).toBeGreaterThanOrEqual(failing.last_error?.at ?? Infinity)
    expect(await b.forks()).toEqual([])
  }, 90_000)
})
