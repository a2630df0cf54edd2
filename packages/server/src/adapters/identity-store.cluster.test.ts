import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { createAuth, isAuthError, ROOT_USER_ID } from '@svcdb/auth'
import type { Auth, IdentityStore } from '@svcdb/auth'
import {
  createManualClock,
  testMagicLinkCode,
  testRefreshToken,
  testUser,
} from '@svcdb/auth/testing'
import { Database } from '@svcdb/engine'
import type { MetaStore } from '@svcdb/engine'
import { createPostgresMetaStore } from '@svcdb/postgres'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEngineIdentityStore } from './identity-store'
import { waitUntil } from '../../test/kit/wait-until'

const run = promisify(execFile)

function databaseUrl(): string {
  const url = process.env.DATABASE_URL
  if (url === undefined || url === '')
    throw new Error(
      'DATABASE_URL is not set: run under pnpm test:cluster (scripts/dev-services.sh)',
    )
  return url
}

interface Node {
  meta: MetaStore
  db: Database
  store: IdentityStore
  auth: Auth
}

// Two nodes, as two server processes would be: each its own metadata store (pool and LISTEN
// connection), shared Database, identity store (in-process lock) and Auth, on one fresh schema.
// Their clock stands still, so no cache entry expires: only the watch makes a node look again.
describe('identity shared by two nodes on PostgreSQL', () => {
  const clock = createManualClock(Date.now())
  const schemas: string[] = []
  let nodes: Node[] = []
  const open = async (schema: string): Promise<Node> => {
    const meta = await createPostgresMetaStore({
      connectionString: databaseUrl(),
      schema,
      member: true,
    })
    const db = await Database.open({ meta, shared: true })
    const store = createEngineIdentityStore(db)
    return { meta, db, store, auth: createAuth({ store, clock }) }
  }

  beforeEach(async () => {
    const schema = `svcdb_identity_${randomBytes(6).toString('hex')}`
    schemas.push(schema)
    nodes = await Promise.all([open(schema), open(schema)])
  })
  afterEach(async () => {
    for (const node of nodes) await node.db.close()
    nodes = []
  })
  afterAll(async () => {
    const drops = schemas.map((s) => `DROP SCHEMA IF EXISTS "${s}" CASCADE;`).join(' ')
    await run('psql', [databaseUrl(), '-qc', drops])
  })
  const pair = () => {
    const [a, b] = nodes
    if (a === undefined || b === undefined) throw new Error('the nodes did not open')
    return [a, b] as const
  }

  it('mint one root key when both start at once, and verify each other’s tokens', async () => {
    const [a, b] = pair()
    const results = await Promise.all([a.auth.bootstrap(), b.auth.bootstrap()])
    const minted = results.flatMap((r) => (r.rootApiKey === undefined ? [] : [r.rootApiKey]))
    expect(minted).toHaveLength(1)
    expect(await a.store.listApiKeys({ userId: ROOT_USER_ID })).toHaveLength(1)
    const rootKey = minted[0] as string
    const fromA = await a.auth.exchangeApiKey(rootKey)
    const fromB = await b.auth.exchangeApiKey(rootKey)
    expect((await b.auth.authenticate(fromA.token)).isRoot).toBe(true)
    expect((await a.auth.authenticate(fromB.token)).isRoot).toBe(true)
  })

  it('let one of two nodes creating the same username win', async () => {
    const [a, b] = pair()
    const results = await Promise.allSettled([
      a.store.createUser(testUser({ username: 'alice' })),
      b.store.createUser(testUser({ username: 'Alice' })),
    ])
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
    expect(lost).toHaveLength(1)
    expect(isAuthError(lost[0], 'CONFLICT')).toBe(true)
    expect(await b.store.listUsers()).toHaveLength(1)
  })

  it('let one of racing rotations of a refresh token win, and use a magic-link code once', async () => {
    const [a, b] = pair()
    const token = testRefreshToken()
    await a.store.putRefreshToken(token)
    const outcomes = await Promise.all(
      [a, b, a, b].map((node) => node.store.consumeRefreshToken(token.digest, 2000)),
    )
    expect(outcomes.filter((o) => o.outcome === 'consumed')).toHaveLength(1)
    const code = testMagicLinkCode()
    await b.store.putMagicLinkCode(code)
    const codes = await Promise.all(
      [a, b, a, b].map((node) => node.store.consumeMagicLinkCode(code.digest, 2000)),
    )
    expect(codes.filter((c) => c !== undefined)).toHaveLength(1)
  })

  it('count rate-limit hits from both nodes exactly', async () => {
    const [a, b] = pair()
    const policy = { now: 0, windowMs: 60_000, limit: 3 }
    const results = await Promise.all(
      [a, b, a, b, a, b].map((node) => node.store.hitRateLimit('mail:x', policy)),
    )
    expect(results.filter((r) => r.allowed)).toHaveLength(3)
  })

  it('see a revocation made on the other node once its watch fires', async () => {
    const [a, b] = pair()
    const { rootApiKey } = await a.auth.bootstrap()
    await b.auth.prepare()
    const stop = b.meta.watch?.(() => void b.auth.checkExternalChanges())
    try {
      const root = await a.auth.authenticate((await a.auth.exchangeApiKey(rootApiKey!)).token)
      const { key, keyId } = await a.auth.keys.create(root, {})
      const { token } = await b.auth.exchangeApiKey(key)
      expect((await b.auth.authenticate(token)).isRoot).toBe(true)
      await a.auth.keys.revoke(root, keyId)
      await waitUntil('b to refuse the revoked key', async () =>
        b.auth.authenticate(token).then(
          () => false,
          (err: unknown) => isAuthError(err, 'INVALID_CREDENTIAL'),
        ),
      )
    } finally {
      stop?.()
    }
  })
})
