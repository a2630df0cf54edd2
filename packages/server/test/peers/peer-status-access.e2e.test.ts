import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil, startPeerNode } from '../kit/peer-servers'
import type { PeerNode } from '../kit/peer-servers'
import { client } from '../kit/server-process'

/**
 * Issue 21: `GET /system/peers` is root's, and a peer's key is never stored, logged nor shown:
 * not by a working peer, nor by one that refuses the key.
 */
let a: PeerNode
let b: PeerNode
// Well-formed but unknown to A: its requests fail with 401, which B reports and may log.
const wrongKey = `svc_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('base64url')}`

beforeAll(async () => {
  a = await startPeerNode()
  b = await startPeerNode({
    peers: [a.link('a'), { name: 'wrong-key', url: a.url, key: wrongKey }],
  })
}, 60_000)
afterAll(async () => {
  await Promise.all([b?.dispose(), a?.dispose()])
})

describe('GET /system/peers', () => {
  it('answers 403 to a caller who is not root', async () => {
    const created = await b.request('POST', '/system/users', { username: 'ada' })
    expect(created.status).toBe(201)
    const { user_id } = (await created.json()) as { user_id: string }
    const issued = await b.request('POST', '/auth/keys/admin', { user_id })
    expect(issued.status).toBe(201)
    const { api_key } = (await issued.json()) as { api_key: string }
    const res = await client(b.url, api_key).get('/system/peers')
    expect(res.status).toBe(403)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN')
  })

  it('never shows nor logs a peer’s key, of a working peer or a refused one', async () => {
    await a.write('/x.txt', new TextEncoder().encode('x'))
    const peers = await pollUntil(
      'peer a synced and peer wrong-key failing',
      () => b.peers(),
      (list) =>
        list.find((p) => p.name === 'a')?.state === 'ok' &&
        list.find((p) => p.name === 'wrong-key')?.state === 'failing',
    )
    const refused = peers.find((p) => p.name === 'wrong-key')
    expect(refused?.last_error?.code).toBe('UNAUTHORIZED')
    // The message says where the key goes, not what it is.
    expect(refused?.last_error?.message).toContain('SVCDB_PEER_WRONG_KEY_KEY')

    const shown = JSON.stringify(await (await b.request('GET', '/system/peers')).json())
    const printed = b.server.stdout() + b.server.stderr()
    for (const key of [a.key, wrongKey]) {
      const secret = key.split('_').at(-1) as string
      expect(shown).not.toContain(secret)
      expect(printed).not.toContain(secret)
    }
    expect(peers.map((p) => p.url)).toEqual([a.url, a.url])
  })
})
