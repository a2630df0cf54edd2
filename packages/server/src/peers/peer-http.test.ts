import { afterEach, describe, expect, it } from 'vitest'
import { createStubServers } from '../../test/kit/stub-servers'
import { PeerError } from './peer-error'
import { createPeerHttp } from './peer-http'

const stubs = createStubServers()
afterEach(() => stubs.closeAll())

/** A `node:http` peer on loopback answering with `handler`; resolves with its URL. */
const peerAnswering = stubs.answering

describe('createPeerHttp', () => {
  it('never follows a redirect, so the key goes nowhere but the peer', async () => {
    const elsewhere: (string | undefined)[] = []
    const other = await peerAnswering((req, res) => {
      elsewhere.push(req.headers.authorization)
      res.end('{}')
    })
    const url = await peerAnswering((_req, res) => {
      res.writeHead(302, { location: `${other}/system/health` }).end()
    })
    const http = createPeerHttp({ name: 'a', url, key: 'svc_secret' })
    const failure = await http.request('GET', '/system/health').catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(PeerError)
    expect(String((failure as Error).message)).not.toContain('svc_secret')
    expect(elsewhere).toEqual([])
  })

  it('reads at most 64 KiB of an error answer, however long the peer makes it', async () => {
    const url = await peerAnswering((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' })
      const more = () => {
        // Endless: a body that never closes its JSON.
        let open = true
        while (open && !res.destroyed) open = res.write(`{"error":"${'x'.repeat(16 * 1024)}`)
        if (!res.destroyed) res.once('drain', more)
      }
      more()
    })
    const http = createPeerHttp({ name: 'a', url })
    const failure = (await http
      .request('GET', '/system/health')
      .catch((err: unknown) => err)) as PeerError
    expect(failure).toBeInstanceOf(PeerError)
    expect(failure.code).toBe('HTTP_500')
    expect(failure.status).toBe(500)
  })

  it('still reads the code and message of an error answer in our form', async () => {
    const url = await peerAnswering((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { code: 'FORBIDDEN', message: 'not yours' } }))
    })
    const failure = (await createPeerHttp({ name: 'a', url })
      .request('POST', '/versions/export')
      .catch((err: unknown) => err)) as PeerError
    expect(failure.code).toBe('FORBIDDEN')
    expect(failure.message).toContain('not yours')
  })
})
