import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil, startPeerNode } from '../kit/peer-servers'
import type { PeerNode } from '../kit/peer-servers'
import { startMaliciousPeer } from '../kit/malicious-peer'
import type { MaliciousPeer } from '../kit/malicious-peer'

/**
 * Issue 21: a peer whose archive fails verification is marked failing and nothing is applied.
 * The malicious peer is a `node:http` server in front of a real one: its event stream is
 * empty, its exports and patches are the real server's with bytes flipped in the middle, or
 * cut in half; everything else is the real server's answer.
 */

let real: PeerNode
let evil: MaliciousPeer
let b: PeerNode

beforeAll(async () => {
  real = await startPeerNode()
  await real.write('/big.bin', new Uint8Array(randomBytes(2 * 1024 * 1024)))
  await real.write('/note.txt', new TextEncoder().encode('from the peer'))
  evil = await startMaliciousPeer(real)
  b = await startPeerNode()
}, 60_000)
afterAll(async () => {
  await b?.dispose()
  await evil?.close()
  await real?.dispose()
})

/** What must not change on B: its HEAD, its forks, its files. */
async function stateOf(node: PeerNode) {
  const listing = (await (await node.request('GET', '/files/')).json()) as {
    items: { path: string; hash?: string }[]
  }
  return {
    head: await node.headPrefix(),
    forks: await node.forks(),
    files: listing.items.map((e) => `${e.path}:${e.hash ?? ''}`),
  }
}

describe('a peer that sends corrupt archives', () => {
  it('is marked failing, nothing of it is applied, and an intact archive then lands as a fork', async () => {
    const local = await b.write('/mine.txt', new TextEncoder().encode('mine'))
    await b.restart({ peers: [{ name: 'evil', url: evil.url, key: real.key }] })
    const before = await stateOf(b)
    expect(before.head).toBe(local.slice(0, 12))

    for (const mode of ['flip', 'truncate'] as const) {
      evil.mode = mode
      // Two archives served in this mode: the first attempt with it has ended.
      await pollUntil(
        `B to fetch two ${mode} archives`,
        async () => evil.served[mode],
        (n) => n >= 2,
      )
      const peer = await pollUntil(
        `peer evil failing after a ${mode} archive`,
        () => b.peer('evil'),
        (p) => p.state === 'failing' && p.last_error !== null,
      )
      expect(peer.last_error?.code).toMatch(/^(INVALID_ARCHIVE|CONTENT_CORRUPT)$/)
      expect(peer.cursor).toBeNull()
      expect(peer.forks_created).toBe(0)
      expect(await b.sync()).toMatchObject({ failing_peers: 1 })
      expect(await stateOf(b)).toEqual(before)
    }
    expect([...evil.authorizations]).toContain(`Bearer ${real.key}`)

    // The same peer, answering honestly: B's HEAD moved since (there is no cursor), so the
    // peer's version lands as a fork. This shows the refusals above came from the damage.
    evil.mode = 'intact'
    const fork = `peer-evil-${await real.headPrefix()}`
    await pollUntil(
      `fork ${fork} on B`,
      () => b.forks(),
      (forks) => forks.some((f) => f.name === fork),
    )
    const note = await b.request('GET', `/files/note.txt?fork=${fork}`)
    expect(await note.text()).toBe('from the peer')
    expect(await b.headPrefix()).toBe(before.head)
    expect((await stateOf(b)).files).toEqual(before.files)
  }, 120_000)
})
