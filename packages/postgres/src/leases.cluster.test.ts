import type { Leases } from '@svcdb/engine'
import { runLeasesConformance } from '@svcdb/engine/testing'
import { describe, expect, it } from 'vitest'
import { createPostgresLeases } from './postgres-leases'
import { adminClient, databaseUrl, namedUrl, testSchemas, unique } from './test-schema'

const admin = adminClient()
const newSchema = testSchemas('svcdb_leases')

/**
 * Terminates the backends of node `name` that hold advisory locks, as an operator killing a
 * stuck session would, waiting (up to 5 s) until each has exited and its locks are free.
 */
async function killLockHolders(name: string): Promise<number> {
  const { rows } = await admin.query<{ killed: boolean }>(
    `SELECT pg_terminate_backend(a.pid, 5000) AS killed FROM pg_stat_activity a
       WHERE a.application_name = $1
         AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.granted)`,
    [name],
  )
  return rows.filter((row) => row.killed).length
}

/** Two nodes (two pools, two names) over one fresh schema. */
async function twoNodes(): Promise<{
  schema: string
  a: Leases
  b: Leases
  names: Map<Leases, string>
}> {
  const schema = newSchema()
  const [nameA, nameB] = [unique('lease_a'), unique('lease_b')]
  // Both start together: creating the table must be safe when they race.
  const [a, b] = await Promise.all([
    createPostgresLeases({ connectionString: namedUrl(nameA), schema, nodeId: 'node-a' }),
    createPostgresLeases({ connectionString: namedUrl(nameB), schema, nodeId: 'node-b' }),
  ])
  return {
    schema,
    a,
    b,
    names: new Map([
      [a, nameA],
      [b, nameB],
    ]),
  }
}

runLeasesConformance('postgres', async () => {
  const { a, b, names } = await twoNodes()
  return {
    a,
    b,
    async loseLocks(node) {
      await killLockHolders(names.get(node) as string)
    },
    async close() {
      await a.close()
      await b.close()
    },
  }
})

describe('createPostgresLeases', () => {
  it('frees a lock whose holder’s backend is terminated, found in pg_locks', async () => {
    const { schema, a, b } = await twoNodes()
    try {
      let release!: () => void
      let started!: () => void
      const running = new Promise<void>((resolve) => {
        started = resolve
      })
      const holding = a.withLock('gc', async (signal) => {
        started()
        await new Promise<void>((resolve) => {
          release = resolve
        })
        return signal.aborted
      })
      await running
      expect(await b.withLock('gc', async () => 'too early')).toEqual({ ran: false })
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
           AND classid::text::bigint = hashtext('svcdb-lease:' || $1)::bigint & 4294967295
           AND objid::text::bigint = hashtext('gc')::bigint & 4294967295`,
        [schema],
      )
      expect(rows).toHaveLength(1)
      await admin.query('SELECT pg_terminate_backend($1, 5000)', [rows[0]?.pid])
      expect(await b.withLock('gc', async () => 'after the kill')).toEqual({
        ran: true,
        value: 'after the kill',
      })
      release()
      // The job saw the loss through its signal.
      expect(await holding).toEqual({ ran: true, value: true })
      // And a's later runs take the lock afresh.
      expect(await a.withLock('gc', async () => 'again')).toEqual({ ran: true, value: 'again' })
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('records the claimant and done in lease_claims', async () => {
    const { schema, a, b } = await twoNodes()
    try {
      const claim = await b.claim('nightly', 1_700_000_000_000, 60_000)
      await claim?.finish()
      expect(await a.claim('other', 5, 60_000)).toBeDefined()
      const { rows } = await admin.query(
        `SELECT job, slot::text AS slot, node, done FROM "${schema}".lease_claims ORDER BY job`,
      )
      expect(rows).toEqual([
        { job: 'nightly', slot: '1700000000000', node: 'node-b', done: true },
        { job: 'other', slot: '5', node: 'node-a', done: false },
      ])
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('forgets claims whose lease ended over 7 days ago, pruning at most hourly', async () => {
    const { schema, a, b } = await twoNodes()
    const table = `"${schema}".lease_claims`
    /** A claim of `job` slot 1 as a node would have left it, its lease ended `age` ago. */
    const insert = (job: string, age: string, done = true) =>
      admin.query(
        `INSERT INTO ${table} (job, slot, node, claim_id, lease_until, done)
           VALUES ($1, 1, 'node-old', $1, now() - $2::interval, $3)`,
        [job, age, done],
      )
    const jobs = async () =>
      (await admin.query<{ job: string }>(`SELECT job FROM ${table} ORDER BY job`)).rows.map(
        (row) => row.job,
      )
    try {
      await insert('cron:old', '8 days')
      await insert('cron:dead-old', '8 days', false)
      await insert('cron:recent', '6 days')
      // The first claim of a Leases object prunes.
      expect(await a.claim('fresh', 1, 60_000)).toBeDefined()
      expect(await jobs()).toEqual(['cron:recent', 'fresh'])
      // A slot forgotten may be granted again; a recent finished one never is.
      expect(await b.claim('cron:old', 1, 60_000)).toBeDefined()
      expect(await b.claim('cron:recent', 1, 60_000)).toBeUndefined()
      // Within the hour neither object prunes again (b pruned at its first claim above).
      await insert('cron:later', '8 days')
      expect(await a.claim('fresh', 2, 60_000)).toBeDefined()
      expect(await b.claim('fresh', 3, 60_000)).toBeDefined()
      expect(await jobs()).toContain('cron:later')
      expect(await a.claim('cron:later', 1, 60_000)).toBeUndefined()
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('refuses bad options with INVALID_INPUT and an unreachable server with IO_ERROR', async () => {
    await expect(createPostgresLeases({ connectionString: '' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    await expect(
      createPostgresLeases({ connectionString: databaseUrl(), schema: 'Bad-Name' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(
      createPostgresLeases({ connectionString: databaseUrl(), nodeId: '' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(
      createPostgresLeases({ connectionString: 'postgres://nobody@127.0.0.1:1/none' }),
    ).rejects.toMatchObject({ code: 'IO_ERROR' })
  })
})
