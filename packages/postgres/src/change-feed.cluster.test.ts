import { isEngineError } from '@svcdb/engine'
import type { Database, DatabaseChange } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { watchApplicationName } from './commit-watch'
import { openSharedNodes, openStore } from './test-nodes'
import { testSchemas, withAdmin } from './test-schema'

const encoder = new TextEncoder()

/** Waits (bounded) until `done()` holds; fails naming `what` otherwise. */
async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await done()) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Backend pids of the LISTEN connections of `schema`'s stores. */
function watchPids(schema: string): Promise<number[]> {
  return withAdmin(async (client) => {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'`,
      [watchApplicationName(schema)],
    )
    return rows.map((row) => row.pid)
  })
}

const pathsOf = (changes: readonly DatabaseChange[]) =>
  changes.flatMap((c) => ('entries' in c ? c.entries.map((e) => e.path) : []))

// Two nodes: two Databases, each on its own PostgreSQL store over one schema. b never polls
// (sharedPollMs is huge), so what it reports of a's writes came through NOTIFY.
describe('the change feed of a shared database on PostgreSQL', () => {
  const newSchema = testSchemas()
  let schema: string
  let a: Database
  let b: Database

  beforeEach(async () => {
    schema = newSchema()
    ;[a, b] = await openSharedNodes(schema, 2 ** 40)
  })

  afterEach(async () => {
    await a.close()
    await b.close()
  })

  it("reports the other node's writes through NOTIFY, in order, each once", async () => {
    const seen: DatabaseChange[] = []
    const arrivals: number[] = []
    b.onChange((change) => {
      seen.push(change)
      arrivals.push(performance.now())
    })
    await until('the LISTEN connection', async () => (await watchPids(schema)).length === 1)
    const latencies: number[] = []
    const expected: string[] = []
    for (let i = 0; i < 30; i++) {
      const path = `/n${i}.txt`
      await a.writeFile(path, `note ${i}`)
      const committed = performance.now()
      expected.push(path)
      await until(`${path} on b`, () => seen.length === expected.length)
      latencies.push((arrivals.at(-1) as number) - committed)
    }
    await b.writeFile('/from-b.txt', 'b')
    await a.delete('/n0.txt')
    await until('the delete on b', () => seen.length === expected.length + 2)
    expect(pathsOf(seen)).toEqual([...expected, '/from-b.txt', '/n0.txt'])
    expect(seen.at(-1)).toMatchObject({ type: 'entries_deleted', version: a.head() })
    latencies.sort((x, y) => x - y)
    const at = (q: number) => latencies[Math.floor(q * (latencies.length - 1))]?.toFixed(2)
    console.log(
      `NOTIFY → onChange over ${latencies.length} writes: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms`,
    )
  })

  it('listens again after its LISTEN connection is killed, and still reports the next change', async () => {
    const seen: DatabaseChange[] = []
    b.onChange((change) => seen.push(change))
    await until('the LISTEN connection', async () => (await watchPids(schema)).length === 1)
    const [killed] = await watchPids(schema)
    await withAdmin((client) => client.query('SELECT pg_terminate_backend($1)', [killed]))
    await a.writeFile('/after-kill.txt', 'x')
    await until('the change after the kill', () => seen.length === 1)
    expect(pathsOf(seen)).toEqual(['/after-kill.txt'])
    const [again] = await watchPids(schema)
    expect(again).toBeDefined()
    expect(again).not.toBe(killed)
    await a.writeFile('/later.txt', 'y')
    await until('the next change', () => seen.length === 2)
    expect(pathsOf(seen)).toEqual(['/after-kill.txt', '/later.txt'])
  })

  it('notifies watchers of committed guarded batches only', async () => {
    const writer = await openStore(schema)
    const watcher = await openStore(schema)
    try {
      let notified = 0
      const stop = watcher.watch?.(() => notified++)
      expect(stop).toBeDefined()
      await until('the LISTEN connection', async () => (await watchPids(schema)).length === 1)
      // Once it listens the watch tells its watchers to look (commits before it are unheard).
      await until('the first look', () => notified >= 1)
      notified = 0
      const put = (value: string) => ({
        type: 'put' as const,
        space: 'sys' as const,
        key: 'probe',
        value: encoder.encode(value),
      })
      // Rolled back (its guard fails): no notification.
      const lost = await writer
        .batch([put('lost')], {
          sync: true,
          guards: [{ space: 'sys', key: 'probe', expect: encoder.encode('never') }],
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        )
      expect(isEngineError(lost, 'CONFLICT')).toBe(true)
      await writer.batch([put('one')], {
        sync: true,
        guards: [{ space: 'sys', key: 'probe', expect: null }],
      })
      // Notifications arrive in commit order: had the lost batch sent one, it would be here.
      await until('the notification', () => notified >= 1)
      await writer.batch([put('two')], { sync: true })
      await writer.batch([put('three')], {
        sync: true,
        guards: [{ space: 'sys', key: 'probe', expect: encoder.encode('two') }],
      })
      await until('the second notification', () => notified >= 2)
      expect(notified).toBe(2)
      stop?.()
      await until(
        'the LISTEN connection to end',
        async () => (await watchPids(schema)).length === 0,
      )
    } finally {
      await writer.close()
      await watcher.close()
    }
  })
})
