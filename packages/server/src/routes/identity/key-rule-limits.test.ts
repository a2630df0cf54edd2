import { createHash, randomUUID } from 'node:crypto'
import type { Auth, IdentityStore } from '@svcdb/auth'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEngineIdentityStore } from '../../adapters/identity-store'
import { fileRouteHandlers } from '../files/file-route-handlers'
import { authRouteHandlers } from './auth-route-handlers'
import { expectError, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

// 8,000 patterns each when expanded: 100 of them cost ~900 MB and 30 s before the limit.
const BOMB = '/{1..20}{1..20}{1..20}'

let kit: TestApp
let store: IdentityStore
let auth: Auth
let app: TestApp['app']
let rootToken: string

beforeEach(async () => {
  kit = await startTestApp((deps) => [...authRouteHandlers(deps), ...fileRouteHandlers(deps)], {
    auth: ({ db }) => ({ store: createEngineIdentityStore(db) }),
  })
  ;({ store, auth, app, rootToken } = kit)
})
afterEach(() => kit.close())

const call = (token: string, path: string, init: RequestInit & { json?: unknown } = {}) => {
  const { json, ...rest } = init
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (json !== undefined) headers['content-type'] = 'application/json'
  return app.request(path, {
    ...rest,
    headers,
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  })
}

/** An ordinary user and a token of theirs. */
async function ordinaryUser(): Promise<{ userId: string; token: string }> {
  const root = await auth.authenticate(rootToken)
  const user = await auth.users.create({ username: 'mallory' })
  const { apiKey } = await auth.keys.createAdmin(root, { userId: user.userId })
  return { userId: user.userId, token: (await auth.exchangeApiKey(apiKey)).token }
}

describe('key rules with brace globs', () => {
  it('refuse a brace-bomb rule set at key creation with 400, storing nothing', async () => {
    const mallory = await ordinaryUser()
    const rules = Array.from({ length: 100 }, (_, i) => ({ [`${BOMB}${i}`]: '-r--l---' }))
    const res = await call(mallory.token, '/auth/keys', { method: 'POST', json: { rules } })
    const error = await expectError(res, 400, 'BAD_REQUEST')
    expect(error.message).toMatch(/^rules: .*at most 64 patterns/)
    // Many small brace sets together are counted too.
    const pairs = Array.from({ length: 33 }, (_, i) => ({ [`/{a,b}${i}`]: '-r--l---' }))
    await expectError(
      await call(mallory.token, '/auth/keys', { method: 'POST', json: { rules: pairs } }),
      400,
      'BAD_REQUEST',
    )
    const keys = (await (await call(mallory.token, '/auth/keys')).json()) as Array<{
      rules: unknown[]
    }>
    expect(keys.filter((key) => key.rules.length > 0)).toEqual([])
    const fine = await call(mallory.token, '/auth/keys', {
      method: 'POST',
      json: { rules: pairs.slice(0, 32) },
    })
    expect(fine.status).toBe(201)
  })

  it('make a key stored with huge rules deny everything, compiling nothing large', async () => {
    await call(rootToken, '/files/pub/111', { method: 'PUT', body: 'x' })
    await call(rootToken, '/files/pub/a.txt', { method: 'PUT', body: 'a' })
    const mallory = await ordinaryUser()
    // A key stored before the limit existed: huge denies first, then everything granted.
    const keyId = randomUUID()
    const prefix = keyId.replaceAll('-', '').slice(0, 16)
    const secret = 'b'.repeat(43)
    const now = Date.now()
    await store.createApiKey({
      keyId,
      prefix,
      secretDigest: createHash('sha256').update(secret).digest('base64url'),
      kind: 'self-service',
      userId: mallory.userId,
      rules: [
        ...Array.from({ length: 100 }, (_, i) => ({ [`/pub/${BOMB.slice(1)}${i}`]: '--------' })),
        { '/**': 'crudlify' },
      ],
      createdAt: now,
      expiresAt: now + 86_400_000,
    })
    const token = (await auth.exchangeApiKey(`svc_k_${prefix}_${secret}`)).token
    const heapBefore = process.memoryUsage().heapUsed
    await expectError(await call(token, '/files/pub/111'), 404, 'NOT_FOUND')
    await expectError(await call(token, '/files/pub/a.txt'), 404, 'NOT_FOUND')
    const listing = await call(token, '/files/pub/?depth=-1')
    expect([200, 404]).toContain(listing.status)
    if (listing.status === 200) {
      expect(((await listing.json()) as { items: unknown[] }).items).toEqual([])
    }
    // 800,000 compiled patterns took ~900 MB; refused rules hold next to nothing.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 1024 * 1024)
  })
})
