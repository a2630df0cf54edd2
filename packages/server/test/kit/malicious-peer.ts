import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PeerNode } from './peer-servers'

/** What a {@link MaliciousPeer} does to archives: flips 64 bytes mid-way, cuts them in half, or nothing. */
export type Mode = 'flip' | 'truncate' | 'intact'

/** A peer that damages its archives (see {@link startMaliciousPeer}). */
export interface MaliciousPeer {
  url: string
  /** Changed at any time; `flip` at the start. */
  mode: Mode
  /** Archives answered in each mode. */
  served: Record<Mode, number>
  /** Authorization headers received. */
  authorizations: Set<string>
  close(): Promise<void>
}

/**
 * A `node:http` peer in front of a real one (`real`, asked with its root key): its event
 * stream is empty and stays open (so only interval pulls come), its exports and patches are
 * the real server's damaged as `mode` says, and everything else is the real server's answer,
 * headers included.
 */
export async function startMaliciousPeer(real: PeerNode): Promise<MaliciousPeer> {
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
