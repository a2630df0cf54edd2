import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAuth, isAuthError, ROOT_USER_ID } from '@svcdb/auth'
import type { IdentityStore } from '@svcdb/auth'
import {
  runIdentityStoreConformance,
  testApiKey,
  testRefreshToken,
  testUser,
} from '@svcdb/auth/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngineIdentityStore, openFileIdentityStore } from './identity-store'
import { openTempDatabase } from '../../test/kit'
import type { TempDatabase } from '../../test/kit'

const temps = new Map<IdentityStore, TempDatabase>()
runIdentityStoreConformance('engine system store on disk', {
  async create() {
    const temp = await openTempDatabase()
    const store = createEngineIdentityStore(temp.db)
    temps.set(store, temp)
    return store
  },
  async destroy(store) {
    await temps.get(store)?.destroy()
    temps.delete(store)
  },
})

describe('createEngineIdentityStore', () => {
  let temp: TempDatabase | undefined
  afterEach(async () => {
    await temp?.destroy()
    temp = undefined
  })

  it('keeps users and keys, findable by prefix, across closing and reopening the database', async () => {
    temp = await openTempDatabase()
    const user = testUser({ username: 'Zoë', email: 'zoe@example.com' })
    const key = testApiKey({ userId: user.userId })
    const before = createEngineIdentityStore(temp.db)
    await before.createUser(user)
    await before.createApiKey(key)
    const after = createEngineIdentityStore(await temp.reopen())
    expect(await after.getUser(user.userId)).toEqual(user)
    expect(await after.findUserByEmail('zoe@example.com')).toEqual(user)
    expect(await after.findApiKeyByPrefix(key.prefix)).toEqual(key)
  })

  // Two stores on one database have separate in-process locks, as two nodes would: only the
  // engine's guarded batches keep them apart.
  it('lets one of two stores on one database win a username and a rotation', async () => {
    temp = await openTempDatabase()
    const [a, b] = [createEngineIdentityStore(temp.db), createEngineIdentityStore(temp.db)]
    const created = await Promise.allSettled([
      a.createUser(testUser({ username: 'alice' })),
      b.createUser(testUser({ username: 'ALICE' })),
    ])
    const lost = created.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
    expect(lost).toHaveLength(1)
    expect(isAuthError(lost[0], 'CONFLICT')).toBe(true)
    const token = testRefreshToken()
    await a.putRefreshToken(token)
    const outcomes = await Promise.all(
      [a, b, a, b].map((store) => store.consumeRefreshToken(token.digest, 2000)),
    )
    expect(outcomes.filter((o) => o.outcome === 'consumed')).toHaveLength(1)
  })

  it('mints one root key when two Auths on one database bootstrap together', async () => {
    temp = await openTempDatabase()
    const db = temp.db
    const auths = [1, 2].map(() => createAuth({ store: createEngineIdentityStore(db) }))
    const results = await Promise.all(auths.map((auth) => auth.bootstrap()))
    expect(results.filter((r) => r.rootApiKey !== undefined)).toHaveLength(1)
    const keys = await createEngineIdentityStore(db).listApiKeys({ userId: ROOT_USER_ID })
    expect(keys).toHaveLength(1)
  })
})

describe('openFileIdentityStore', () => {
  let dir: string | undefined
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
    dir = undefined
  })

  it('creates the identity database when absent and keeps identity across close and open', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-identity-'))
    const path = join(dir, 'identity')
    const user = testUser()
    const first = await openFileIdentityStore(path)
    await first.store.createUser(user)
    await first.close()
    const second = await openFileIdentityStore(path)
    try {
      expect(await second.store.listUsers()).toEqual([user])
    } finally {
      await second.close()
    }
  })

  it('refuses a directory another open store holds', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-identity-'))
    const first = await openFileIdentityStore(dir)
    try {
      await expect(openFileIdentityStore(dir)).rejects.toThrow(/locked/)
    } finally {
      await first.close()
    }
  })
})
