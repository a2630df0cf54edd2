import { describe, expect, it } from 'vitest'
import { createAuth } from '../create-auth'
import { isAuthError } from '../errors'
import { runIdentityStoreConformance } from '../testing/identity-store-conformance'
import {
  testMagicLinkCode,
  testRefreshToken,
  testSigningKey,
  testUser,
} from '../testing/identity-fixtures'
import { createManualClock } from '../testing/manual-clock'
import { ROOT_USER_ID } from '../users/user'
import { createKvIdentityStore } from './kv-identity-store'
import { MAX_SECTION_ATTEMPTS } from './kv-sections'
import { createMemoryKvStore } from './kv-store'
import type { KvStore } from './kv-store'

// One memory kv shared by several identity stores, each with its own in-process lock: the
// shape of several processes on one database. Reads yield to the event loop before they
// answer, so racing sections all read before any of them writes.
const sharedKv = (): KvStore => {
  const kv = createMemoryKvStore()
  return {
    ...kv,
    get: async (key) => {
      const value = await kv.get(key)
      await new Promise((resolve) => setImmediate(resolve))
      return value
    },
  }
}

const settle = async <T>(work: Promise<T>[]) => {
  const results = await Promise.allSettled(work)
  return {
    won: results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
    lost: results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : [])),
  }
}

// Without guards the kv must have one owner; the store still passes everything in-process.
runIdentityStoreConformance('memory kv without guards', {
  create() {
    const { isConflict: _, ...kv } = createMemoryKvStore()
    return createKvIdentityStore(kv)
  },
})

describe('identity stores sharing one kv', () => {
  it('let one of two racing creations of a username win', async () => {
    const kv = sharedKv()
    const [a, b] = [createKvIdentityStore(kv), createKvIdentityStore(kv)]
    const { won, lost } = await settle([
      a.createUser(testUser({ username: 'alice' })),
      b.createUser(testUser({ username: 'Alice' })),
    ])
    expect(won).toHaveLength(1)
    expect(lost).toHaveLength(1)
    expect(isAuthError(lost[0], 'CONFLICT')).toBe(true)
    expect(await a.listUsers()).toHaveLength(1)
  })

  it('let exactly one of two racing rotations of a refresh token win', async () => {
    const kv = sharedKv()
    const [a, b] = [createKvIdentityStore(kv), createKvIdentityStore(kv)]
    const token = testRefreshToken()
    await a.putRefreshToken(token)
    const outcomes = await Promise.all([
      a.consumeRefreshToken(token.digest, 2000),
      b.consumeRefreshToken(token.digest, 2000),
    ])
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['consumed', 'reused'])
  })

  it('consume a magic-link code once', async () => {
    const kv = sharedKv()
    const stores = [createKvIdentityStore(kv), createKvIdentityStore(kv), createKvIdentityStore(kv)]
    const code = testMagicLinkCode()
    await stores[0]?.putMagicLinkCode(code)
    const got = await Promise.all(stores.map((s) => s.consumeMagicLinkCode(code.digest, 2000)))
    expect(got.filter((c) => c !== undefined)).toHaveLength(1)
  })

  it('agree on one signing key', async () => {
    const kv = sharedKv()
    const [a, b] = [createKvIdentityStore(kv), createKvIdentityStore(kv)]
    const [ka, kb] = await Promise.all([
      a.putSigningKeyIfAbsent(testSigningKey('kid-a')),
      b.putSigningKeyIfAbsent(testSigningKey('kid-b')),
    ])
    expect(ka.kid).toBe(kb.kid)
    expect((await a.getSigningKey())?.kid).toBe(ka.kid)
  })

  it('count racing rate-limit hits exactly', async () => {
    const kv = sharedKv()
    const stores = Array.from({ length: 4 }, () => createKvIdentityStore(kv))
    const policy = { now: 0, windowMs: 60_000, limit: 2 }
    const results = await Promise.all(stores.map((s) => s.hitRateLimit('mail:a', policy)))
    expect(results.filter((r) => r.allowed)).toHaveLength(2)
  })

  it('give up with CONFLICT when other writers win every attempt', async () => {
    const kv = createMemoryKvStore()
    // Another writer moves the record between every read and write.
    let n = 0
    const contended: KvStore = {
      ...kv,
      async batch(operations, options) {
        await kv.batch([{ type: 'put', key: 'rate/hot', value: `{"hits":[],"windowMs":${++n}}` }])
        return kv.batch(operations, options)
      },
    }
    const store = createKvIdentityStore(contended)
    const err = await store.hitRateLimit('hot', { now: 0, windowMs: 1, limit: 1 }).catch((e) => e)
    expect(isAuthError(err, 'CONFLICT')).toBe(true)
    expect(n).toBe(MAX_SECTION_ATTEMPTS)
  })
})

describe('Auth instances sharing one kv', () => {
  it('mint the root key once when they start together on an empty store', async () => {
    const kv = sharedKv()
    const auths = Array.from({ length: 3 }, () => createAuth({ store: createKvIdentityStore(kv) }))
    const results = await Promise.all(auths.map((auth) => auth.bootstrap()))
    const keys = results.flatMap((r) => (r.rootApiKey === undefined ? [] : [r.rootApiKey]))
    expect(keys).toHaveLength(1)
    const store = createKvIdentityStore(kv)
    expect(await store.listApiKeys({ userId: ROOT_USER_ID })).toHaveLength(1)
    // Every node signs with the same key, so each verifies the others' tokens.
    const { token } = await auths[1]!.exchangeApiKey(keys[0]!)
    expect((await auths[2]!.authenticate(token)).isRoot).toBe(true)
  })

  it('see a revocation made by another once they check for external changes', async () => {
    const kv = sharedKv()
    const clock = createManualClock()
    const a = createAuth({ store: createKvIdentityStore(kv), clock })
    const b = createAuth({ store: createKvIdentityStore(kv), clock })
    const { rootApiKey } = await a.bootstrap()
    await b.prepare()
    const root = await a.authenticate((await a.exchangeApiKey(rootApiKey!)).token)
    const alice = await a.users.create({ username: 'alice' })
    const { key, keyId } = await a.keys.create(root, { userId: alice.userId })
    const { token } = await b.exchangeApiKey(key)
    expect(await b.checkExternalChanges()).toBe(true)
    expect(await b.checkExternalChanges()).toBe(false)
    // Fills B's cache with the key, unrevoked.
    expect((await b.authenticate(token)).userId).toBe(alice.userId)

    await a.keys.revoke(root, keyId)
    // B's cache still holds the key: the clock never moves, so no TTL expires.
    expect((await b.authenticate(token)).userId).toBe(alice.userId)
    expect(await b.checkExternalChanges()).toBe(true)
    await expect(b.authenticate(token)).rejects.toMatchObject({ code: 'INVALID_CREDENTIAL' })
  })
})
