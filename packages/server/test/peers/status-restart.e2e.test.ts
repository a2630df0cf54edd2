import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort } from '../kit'
import { pollUntil, startPeerNode } from '../kit/peer-servers'
import type { PeerNode } from '../kit/peer-servers'
import { startMaliciousPeer } from '../kit/malicious-peer'
import type { MaliciousPeer } from '../kit/malicious-peer'

/**
 * Issue 21 review (findings 8 and 9): `sync_lag_entries` says how far B is behind while its
 * pulls fail, and B's status of a peer (lag, forks made, last error) outlives B's restart.
 * Between B and A sits a `node:http` relay that passes everything on, or flips bytes in the
 * middle of archives (mode `flip`), so B's rounds see A ahead and then fail verification. Its
 * event stream is empty: what B knows of the lag, it measured.
 */

const text = (s: string) => new TextEncoder().encode(s)
let a: PeerNode
let b: PeerNode
let relay: MaliciousPeer

beforeAll(async () => {
  a = await startPeerNode()
  relay = await startMaliciousPeer(a)
  relay.mode = 'intact'
  b = await startPeerNode({ peers: [{ ...a.link('a'), url: relay.url }] })
}, 60_000)
afterAll(async () => {
  await b?.dispose()
  await relay?.close()
  await a?.dispose()
})

describe('peer status while pulls fail, and across a restart', () => {
  it('shows the lag it measured, and keeps lag, forks and the last error over a restart', async () => {
    const base = await a.write('/base.txt', text('base'))
    await pollUntil(
      'B to sync A',
      () => b.peer('a'),
      (p) => p.cursor === base && p.state === 'ok',
    )
    // Both change: A's version becomes a fork on B.
    await b.write('/local.txt', text('local'))
    const theirs = await a.write('/theirs.txt', text('theirs'))
    await pollUntil(
      'the fork',
      () => b.peer('a'),
      (p) => p.cursor === theirs,
    )
    expect((await b.peer('a')).forks_created).toBe(1)

    // A gets 5 entries ahead; every archive B is sent now fails verification.
    relay.mode = 'flip'
    for (let i = 0; i < 5; i++) await a.write(`/during-${i}.txt`, text(`d${i}`))
    const behind = await pollUntil(
      'B to know it is 5 entries behind',
      () => b.sync(),
      (s) => s?.failing_peers === 1 && s.sync_lag_entries.a === 5,
    )
    expect(behind?.sync_lag_entries).toEqual({ a: 5 })
    const failing = await b.peer('a')
    expect(failing).toMatchObject({ state: 'failing', cursor: theirs, lag_entries: 5 })
    expect(failing.last_error).not.toBeNull()

    // Restarted where A cannot be reached: what it knew of A comes back, nothing is reset.
    await b.restart({ peers: [{ ...a.link('a'), url: `http://127.0.0.1:${await closedPort()}` }] })
    const after = await b.peer('a')
    expect(after).toMatchObject({ forks_created: 1, lag_entries: 5, cursor: theirs })
    expect(after.last_error).not.toBeNull()
    expect(after.last_success_at).toBe(failing.last_success_at)
    expect((await b.sync())?.sync_lag_entries).toEqual({ a: 5 })

    // Back to A, intact: it catches up and the lag is 0 again.
    relay.mode = 'intact'
    await b.restart({ peers: [{ ...a.link('a'), url: relay.url }] })
    const caught = await pollUntil(
      'B to catch up',
      () => b.sync(),
      (s) => s?.failing_peers === 0 && s.sync_lag_entries.a === 0 && s.active_peers === 1,
    )
    expect(caught?.sync_lag_entries).toEqual({ a: 0 })
    // Not reset by the restarts (a newer fork may replace the first; the count goes on).
    expect((await b.peer('a')).forks_created).toBeGreaterThanOrEqual(1)
  }, 120_000)

  it('names the pins of a peer no longer configured at start, and keeps them', async () => {
    const before = await b.peer('a')
    await b.restart({ peers: [] })
    await pollUntil(
      'the warning about peer/a',
      async () => b.server.stderr(),
      (err) => /pin peer\/a is left by peer a, which is no longer configured/.test(err),
    )
    expect(b.server.stderr()).toContain(before.cursor?.slice(0, 12))
    expect(await b.sync()).toBeUndefined()
    // Configured again, it resumes from its pin: nothing to pull, the same cursor.
    await b.restart({ peers: [{ ...a.link('a'), url: relay.url }] })
    const back = await pollUntil(
      'B to resume A',
      () => b.peer('a'),
      (p) => p.state === 'ok',
    )
    expect(back.cursor).toBe(before.cursor)
    expect(b.server.stderr()).not.toContain('no longer configured')
  }, 60_000)
})
