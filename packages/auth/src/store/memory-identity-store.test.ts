import { describe, expect, it } from 'vitest'
import { runIdentityStoreConformance } from '../testing/identity-store-conformance'
import { createKvIdentityStore } from './kv-identity-store'
import { createMemoryKvStore } from './kv-store'
import { createMemoryIdentityStore } from './memory-identity-store'

runIdentityStoreConformance('memory', { create: () => createMemoryIdentityStore() })

describe('kv identity store', () => {
  it('keeps rate limits in the key-value store, not in the store object', async () => {
    const kv = createMemoryKvStore()
    const policy = { now: 0, windowMs: 60_000, limit: 2 }
    await createKvIdentityStore(kv).hitRateLimit('mail:a', policy)
    await createKvIdentityStore(kv).hitRateLimit('mail:a', policy)
    expect((await createKvIdentityStore(kv).hitRateLimit('mail:a', policy)).allowed).toBe(false)
  })

  it('writes ASCII keys only, whatever the names', async () => {
    const kv = createMemoryKvStore()
    const store = createKvIdentityStore(kv)
    await store.putShare({
      path: '/répertoire/ß/😀',
      subject: { kind: 'group', name: 'grüppe' },
      permissions: '-r------',
      createdAt: 1,
    })
    const keys = (await kv.entries('')).map(([key]) => key)
    // The share and its index, the section version and the change stamp.
    expect(keys).toHaveLength(4)
    expect(keys.every((key) => /^[\x20-\x7e]+$/.test(key))).toBe(true)
    expect(await store.listShares({ path: '/répertoire/ß/😀' })).toHaveLength(1)
  })
})
