import type { Database } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEngineIdentityStore } from '../../adapters/identity-store'
import { authRouteHandlers } from './auth-route-handlers'
import { expectError, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let kit: TestApp
let db: Database
let app: TestApp['app']
let rootKey: string

beforeEach(async () => {
  // The kit's clock stands still, so no bucket refills while the test runs.
  kit = await startTestApp(authRouteHandlers, {
    auth: ({ db }) => ({ store: createEngineIdentityStore(db) }),
  })
  ;({ app, db, rootKey } = kit)
})
afterEach(() => kit.close())

/** A JSON POST, from `remoteAddress` as @hono/node-server would pass it, or with no socket. */
const post = (path: string, body: unknown, remoteAddress?: string) =>
  app.request(
    path,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    remoteAddress === undefined ? undefined : { incoming: { socket: { remoteAddress } } },
  )

const stored = async (prefix: string) => (await db.systemStore('auth').entries(prefix)).length

describe('POST /auth/magic-link from one client', () => {
  it('answers 429 after 20 requests a minute and stores only what it allowed', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 300; i++) {
      const res = await post('/auth/magic-link', { email: `x${i}-${Math.random()}@example.com` })
      statuses.push(res.status)
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
        await expectError(res, 429, 'RATE_LIMITED')
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(20)
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true)
    // One per-address record per allowed request, none for the 280 refused.
    expect(await stored('rate/')).toBe(20)
  })

  it('limits each remote address apart, and all of them together', async () => {
    const from = async (address: string, n: number) => {
      let ok = 0
      for (let i = 0; i < n; i++) {
        const res = await post(
          '/auth/magic-link',
          { email: `${address}-${i}@example.com` },
          address,
        )
        if (res.status === 200) ok++
      }
      return ok
    }
    expect(await from('10.0.0.1', 25)).toBe(20)
    expect(await from('::ffff:10.0.0.2', 25)).toBe(20)
    // Addresses of one IPv6 /64 share a budget.
    expect(await from('2001:db8::1', 15)).toBe(15)
    expect(await from('2001:db8::2', 15)).toBe(5)
    let total = 60
    for (let c = 3; c < 20; c++) total += await from(`10.0.0.${c}`, 20)
    expect(total).toBe(200)
    expect(await stored('rate/')).toBe(200)
  })
})

describe('failed credentials on the token routes', () => {
  it('store nothing, however many', async () => {
    const before = JSON.stringify(await db.systemStore('auth').entries(''))
    const wrong = `${rootKey.slice(0, -4)}AAAA`
    for (let i = 0; i < 100; i++) {
      await expectError(await post('/auth/token', { api_key: wrong }), 401)
      await expectError(await post('/auth/refresh', { refresh_token: `rt_${'A'.repeat(43)}` }), 401)
    }
    expect(JSON.stringify(await db.systemStore('auth').entries(''))).toBe(before)
  })
})
