import type { MetaGuard, MetaStore } from '@svcdb/engine'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { createPostgresMetaStore } from './postgres-meta-store'
import { databaseUrl, dropSchemas, unique } from './test-schema'

const utf8 = (text: string) => new TextEncoder().encode(text)
const decode = (value: Uint8Array | undefined) =>
  value === undefined ? undefined : new TextDecoder().decode(value)

/** The code of the error `pending` rejects with, or `resolved`. */
async function outcome(pending: Promise<unknown>): Promise<string> {
  try {
    await pending
    return 'resolved'
  } catch (err) {
    return String((err as { code?: unknown }).code ?? err)
  }
}

describe('guarded batches on PostgreSQL', () => {
  const schema = unique('svcdb_test')
  const opened: { close(): Promise<unknown> }[] = []
  const store = async (): Promise<MetaStore> => {
    const s = await createPostgresMetaStore({ connectionString: databaseUrl(), schema })
    opened.push(s)
    return s
  }
  /** A plain session, to hold a transaction open while a store's batch waits on it. */
  const session = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: databaseUrl() })
    await client.connect()
    opened.push({ close: () => client.end() })
    return client
  }
  /** Resolves once some backend of the server waits for a lock held by `holder`. */
  const someoneWaitsOn = async (holder: pg.Client): Promise<void> => {
    const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
    const pid = rows[0]?.pid
    for (;;) {
      const waiting = await holder.query(
        'SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
        [pid],
      )
      if (waiting.rowCount !== null && waiting.rowCount > 0) return
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  afterEach(async () => {
    for (const s of opened.splice(0).reverse()) await s.close()
    await dropSchemas([schema])
  })

  it('loses no update of a counter incremented through two stores (two pools) at once', async () => {
    const stores = [await store(), await store()]
    const LOOPS = 20
    const PER_LOOP = 5
    let successes = 0
    await Promise.all(
      Array.from({ length: LOOPS }, async (_, loop) => {
        const s = stores[loop % 2] as MetaStore
        for (let done = 0; done < PER_LOOP;) {
          const seen = await s.get('ref', 'HEAD')
          const next = String((seen === undefined ? 0 : Number(decode(seen))) + 1)
          const result = await outcome(
            s.batch(
              [
                { type: 'put', space: 'ref', key: 'HEAD', value: utf8(next) },
                {
                  type: 'put',
                  space: 'log',
                  key: next.padStart(4, '0'),
                  value: utf8(String(loop)),
                },
              ],
              {
                sync: loop % 3 === 0,
                guards: [{ space: 'ref', key: 'HEAD', expect: seen ?? null }],
              },
            ),
          )
          if (result === 'resolved') {
            successes++
            done++
          } else expect(result).toBe('CONFLICT')
        }
      }),
    )
    expect(successes).toBe(LOOPS * PER_LOOP)
    expect(decode(await stores[1]?.get('ref', 'HEAD'))).toBe(String(successes))
    const logged: string[] = []
    for await (const key of (stores[0] as MetaStore).keys('log')) logged.push(key)
    expect(logged).toHaveLength(successes)
  })

  it('lets exactly one of two stores create an absent key', async () => {
    const [a, b] = [await store(), await store()]
    for (let round = 0; round < 10; round++) {
      const key = `fork${round}`
      const guards: MetaGuard[] = [{ space: 'ref', key, expect: null }]
      const results = await Promise.all(
        [a, b].map((s, i) =>
          outcome(
            s.batch([{ type: 'put', space: 'ref', key, value: utf8(`by ${i}`) }], {
              sync: true,
              guards,
            }),
          ),
        ),
      )
      expect(results.sort()).toEqual(['CONFLICT', 'resolved'])
      const winner = results.indexOf('resolved')
      expect(decode(await a.get('ref', key))).toMatch(/^by [01]$/)
      expect(winner).toBeGreaterThanOrEqual(0)
    }
  })

  it('catches an insert of an absent guarded key by another transaction still open', async () => {
    const s = await store()
    const other = await session()
    await other.query('BEGIN')
    await other.query(`INSERT INTO "${schema}".kv (space, key, value) VALUES ('ref', $1, $2)`, [
      Buffer.from('HEAD'),
      Buffer.from('theirs'),
    ])
    const mine = outcome(
      s.batch([{ type: 'put', space: 'ref', key: 'HEAD', value: utf8('mine') }], {
        sync: true,
        guards: [{ space: 'ref', key: 'HEAD', expect: null }],
      }),
    )
    await someoneWaitsOn(other)
    await other.query('COMMIT')
    expect(await mine).toBe('CONFLICT')
    expect(decode(await s.get('ref', 'HEAD'))).toBe('theirs')
  })

  it('catches a change of a present guarded key by another transaction still open', async () => {
    const s = await store()
    await s.batch([{ type: 'put', space: 'ref', key: 'HEAD', value: utf8('v1') }], { sync: true })
    const other = await session()
    await other.query('BEGIN')
    await other.query(`UPDATE "${schema}".kv SET value = $1 WHERE space = 'ref' AND key = $2`, [
      Buffer.from('v2'),
      Buffer.from('HEAD'),
    ])
    const mine = outcome(
      s.batch([{ type: 'put', space: 'ref', key: 'HEAD', value: utf8('mine') }], {
        sync: true,
        guards: [{ space: 'ref', key: 'HEAD', expect: utf8('v1') }],
      }),
    )
    await someoneWaitsOn(other)
    await other.query('COMMIT')
    expect(await mine).toBe('CONFLICT')
    expect(decode(await s.get('ref', 'HEAD'))).toBe('v2')
  })

  it('sees a key deleted by another transaction while waiting as absent', async () => {
    const s = await store()
    await s.batch([{ type: 'put', space: 'ref', key: 'HEAD', value: utf8('v1') }], { sync: true })
    const other = await session()
    await other.query('BEGIN')
    await other.query(`DELETE FROM "${schema}".kv WHERE space = 'ref' AND key = $1`, [
      Buffer.from('HEAD'),
    ])
    const stale = outcome(
      s.batch([{ type: 'put', space: 'ref', key: 'HEAD', value: utf8('stale') }], {
        sync: true,
        guards: [{ space: 'ref', key: 'HEAD', expect: utf8('v1') }],
      }),
    )
    await someoneWaitsOn(other)
    await other.query('COMMIT')
    expect(await stale).toBe('CONFLICT')
    expect(await s.get('ref', 'HEAD')).toBeUndefined()
    // The placeholder that held the absent key is gone with the rolled-back batch...
    expect((await other.query(`SELECT count(*)::int AS n FROM "${schema}".kv`)).rows[0]).toEqual({
      n: 0,
    })
    // ...and one left by a batch that commits without writing its guarded key is deleted.
    await s.batch([{ type: 'put', space: 'meta', key: 'side', value: utf8('x') }], {
      sync: false,
      guards: [{ space: 'ref', key: 'HEAD', expect: null }],
    })
    expect(await s.get('ref', 'HEAD')).toBeUndefined()
    const keys: string[] = []
    for await (const key of s.keys('ref')) keys.push(key)
    expect(keys).toEqual([])
  })
})
