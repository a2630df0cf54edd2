import { errorBodySchema, peerForgetResponseSchema } from '@svcdb/contract'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { identityRoutes, startTestApp } from '../../test/kit'
import type { TestApp } from '../../test/kit'
import type { PeerConfig } from '../config/peer-flags'
import { createPeerStatusBook } from './peer-status-book'
import { peerRouteHandlers } from './peer-route-handlers'
import { readableCursorKey } from './readable-cursor'
import { stagingForkName } from './readable-staging'

const configured: PeerConfig = { name: 'kept', url: 'http://kept.test' }
let kit: TestApp

beforeEach(async () => {
  kit = await startTestApp((deps) => [
    ...identityRoutes(deps),
    ...peerRouteHandlers({
      db: deps.db,
      peers: [configured],
      book: createPeerStatusBook({
        db: deps.db,
        peers: [configured],
        intervalMs: 1000,
        now: Date.now,
      }),
    }),
  ])
})
afterEach(async () => {
  await kit.close()
})

const forget = (name: string, token = kit.rootToken) =>
  kit.as(token)(`/system/peers/${name}`, { method: 'DELETE' })

async function errorCode(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status)
  return v.parse(errorBodySchema, await res.json()).error.code
}

describe('DELETE /system/peers/{name}', () => {
  it('drops the pins, cursor, staging fork and status of a peer no longer configured', async () => {
    const { db } = kit
    await db.writeFile('/a.txt', 'a')
    const version = db.head()
    await db.writeFile('/a.txt', 'b')
    await db.peerPins.set('gone', version)
    await db.peerPins.set('gone.incoming', version)
    await db.peerPins.set('kept', version)
    const store = db.systemStore('peers')
    await store.batch([
      { type: 'put', key: readableCursorKey('gone'), value: '{"version":null,"scopeHash":null}' },
      { type: 'put', key: 'status/gone', value: '{}' },
    ])
    await db.forks.create(stagingForkName('gone'))
    await db.forks.create('peer-gone-0123456789ab')

    const res = await forget('gone')
    expect(res.status).toBe(200)
    const body = v.parse(peerForgetResponseSchema, await res.json())
    expect(body).toEqual({
      name: 'gone',
      removed: [
        'peer/gone',
        'peer/gone.incoming',
        'readable/gone',
        'status/gone',
        'fork peer-gone.staging',
      ],
    })
    expect((await db.peerPins.list()).map((p) => p.name)).toEqual(['kept'])
    expect(await store.get(readableCursorKey('gone'))).toBeUndefined()
    // A divergence fork holds work someone may still promote: it stays.
    expect((await db.forks.list()).map((f) => f.name)).toEqual(['peer-gone-0123456789ab'])

    expect(await errorCode(await forget('gone'), 404)).toBe('NOT_FOUND')
  })

  it('refuses a peer still configured, a malformed name, and anyone but root', async () => {
    await kit.db.writeFile('/a.txt', 'a')
    await kit.db.peerPins.set('kept', kit.db.head())
    expect(await errorCode(await forget('kept'), 409)).toBe('CONFLICT')
    expect(await kit.db.peerPins.get('kept')).toBe(kit.db.head())
    expect(await errorCode(await forget('-bad'), 400)).toBe('VALIDATION_FAILED')
    const { token } = await kit.userWithToken('ada')
    expect(await errorCode(await forget('kept', token), 403)).toBe('FORBIDDEN')
    expect(await kit.db.peerPins.get('kept')).toBe(kit.db.head())
  })
})
