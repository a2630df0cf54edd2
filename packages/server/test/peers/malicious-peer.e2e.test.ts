import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil, startPeerNode } from '../kit/peer-servers'
import type { PeerNode } from '../kit/peer-servers'

/**
 * Issue 21: a peer whose archive fails verification is marked failing and nothing is applied.
 * The malicious peer is a `node:http` server in front of a real one: its event stream is
 * empty, its exports and patches are the real server's with bytes flipped in the middle, or
 * cut in half; everything else is the real server's answer.
 */
type Mode = 'flip' | 'truncate' | 'intact'

interface MaliciousPeer {
  url: string
  mode: Mode
  /** Archives answered in each mode. */
  served: Record<Mode, number>
  /** Authorization headers received. */
  authorizations: Set<string>
  close(): Promise<void>
}

async function startMaliciousPeer(real: PeerNode): Promise<MaliciousPeer> {
  const streams = new Set<ServerResponse>()
  const peer: MaliciousPeer = {
    url: '',
    mode: 'flip',
    served: { flip: 0, truncate: 0, intact: 0 },
    authorizations: new Set(),
    close: async () => undefined,
  }
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    peer.authorizations.add(req.headers.authorization ?? '')
    const path = req.url ?? '/'
    if (path.startsWith('/system/events')) {
      // An empty stream that stays open: no events, so only interval pulls come.
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      res.flushHeaders()
      streams.add(res)
      res.on('close', () => streams.delete(res))
      return
    }
    const upstream = await fetch(real.url + path, {
      method: req.method ?? 'GET',
      headers: { authorization: `Bearer ${real.key}` },
    })
    let body = new Uint8Array(await upstream.arrayBuffer())
    const mode = peer.mode
    const archive = path.startsWith('/versions/export') || path.startsWith('/versions/diff')
    if (archive && upstream.status === 200) {
      if (mode === 'flip') {
        const middle = body.length >> 1
        for (let i = middle; i < middle + 64 && i < body.length; i++)
          body[i] = 0xff ^ (body[i] ?? 0)
      } else if (mode === 'truncate') {
        body = body.subarray(0, body.length >> 1)
      }
    }
    // The real answer's headers (the archive's version among them), with the new length.
    const headers: Record<string, string> = {}
    upstream.headers.forEach((value, name) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name))
        headers[name] = value
    })
    headers['content-length'] = String(body.length)
    res.writeHead(upstream.status, headers)
    res.end(body)
    if (archive) peer.served[mode]++
  }
  const server: Server = createServer((req, res) => {
    answer(req, res).catch(() => res.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  peer.close = async () => {
    for (const res of streams) res.destroy()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  return peer
}

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
