import { describe, expect, it } from 'vitest'
import type { PeerHttp } from './peer-http'
import { PEER_JSON_LIMIT } from './peer-json-body'
import { PEER_ENTRY_LIMIT, peerChanges, peerWalk } from './peer-tree-reads'

const FROM = 'a'.repeat(64)
const TO = 'b'.repeat(64)
const signal = new AbortController().signal

/** A peer answering every request with `answer(n)` (n counts from 1), counting requests. */
function fakePeer(answer: (n: number, path: string) => Response): PeerHttp & { calls: number } {
  const peer = {
    calls: 0,
    async request(_method: string, path: string) {
      peer.calls++
      return answer(peer.calls, path)
    },
  }
  return peer
}

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })

const changes = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({
    path: `/public/f${from + i}`,
    change: 'modified',
    type: 'file',
  }))

describe('peerChanges against a peer that pages without end', () => {
  it('fails on a page whose cursor repeats, not after thousands of pages (H)', async () => {
    const peer = fakePeer(() => json({ items: changes(1000), cursor: 'again' }))
    await expect(peerChanges(peer, 'a', FROM, TO, signal)).rejects.toMatchObject({
      code: 'INVALID_ARCHIVE',
    })
    expect(peer.calls).toBe(2)
  })

  it('fails on an empty page that names a next one', async () => {
    const peer = fakePeer((n) => json({ items: [], cursor: `c${n}` }))
    await expect(peerChanges(peer, 'a', FROM, TO, signal)).rejects.toMatchObject({
      code: 'INVALID_ARCHIVE',
    })
    expect(peer.calls).toBe(1)
  })

  it('fails past the entry limit when every page moves on', async () => {
    const size = 100_000
    const peer = fakePeer((n) => json({ items: changes(size, n * size), cursor: `c${n}` }))
    await expect(peerChanges(peer, 'a', FROM, TO, signal)).rejects.toMatchObject({
      code: 'PEER_ANSWER_TOO_LARGE',
    })
    expect(peer.calls).toBe(Math.floor(PEER_ENTRY_LIMIT / size) + 1)
  })

  it('stops reading an answer at the JSON limit instead of buffering it whole', async () => {
    let sent = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1 << 20
        controller.enqueue(new Uint8Array(1 << 20).fill(0x20))
      },
    })
    const peer = fakePeer(() => new Response(endless))
    await expect(peerChanges(peer, 'a', FROM, TO, signal)).rejects.toMatchObject({
      code: 'PEER_ANSWER_TOO_LARGE',
    })
    expect(sent).toBeLessThan(PEER_JSON_LIMIT + 4 * (1 << 20))
  })

  it('still reads every page of an honest peer', async () => {
    const peer = fakePeer((n) => json({ items: changes(2, n * 2), cursor: n < 3 ? `c${n}` : null }))
    expect(await peerChanges(peer, 'a', FROM, TO, signal)).toHaveLength(6)
  })
})

describe('peerWalk against a peer that pages without end', () => {
  it('fails on a listing whose next page is the same one', async () => {
    const item = {
      path: '/public/x',
      name: 'x',
      entry_type: 'file',
      hash: 'c'.repeat(64),
      content_type: 'text/plain',
      size: 1,
      created_at: 0,
      updated_at: 0,
    }
    const peer = fakePeer(() =>
      json({ items: [item], total: 1, limit: 1000, offset: 0, next: '/public/x' }),
    )
    await expect(peerWalk(peer, 'a', '/public', TO, '/public', signal)).rejects.toMatchObject({
      code: 'INVALID_ARCHIVE',
    })
    expect(peer.calls).toBe(2)
  })
})
