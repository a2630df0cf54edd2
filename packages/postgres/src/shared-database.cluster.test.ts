import { randomBytes } from 'node:crypto'
import { Database, isEngineError } from '@svcdb/engine'
import type { Entry, MetaStore } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPostgresMetaStore } from './postgres-meta-store'
import { databaseUrl, testSchemas } from './test-schema'

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

async function store(schema: string): Promise<MetaStore> {
  return createPostgresMetaStore({ connectionString: databaseUrl(), schema })
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise
    return undefined
  } catch (err) {
    if (isEngineError(err)) return err.code
    throw err
  }
}

async function paths(entries: AsyncIterable<Entry>): Promise<string[]> {
  const out: string[] = []
  for await (const entry of entries) out.push(entry.path)
  return out
}

interface LogRecord {
  seq: number
  ref: string
  from: string | null
  to: string | null
}

/** The version log as stored, read through a third store on the same schema. */
async function versionLog(meta: MetaStore): Promise<LogRecord[]> {
  const records: LogRecord[] = []
  for await (const [key, value] of meta.iterate('log'))
    records.push({ seq: Number(key), ...(JSON.parse(text(value)) as Omit<LogRecord, 'seq'>) })
  return records
}

// Two nodes: two Databases, each on its own PostgreSQL store (its own pool) over one schema.
describe('a shared database on PostgreSQL, two nodes', () => {
  const newSchema = testSchemas()
  let schema: string
  let a: Database
  let b: Database

  beforeEach(async () => {
    schema = newSchema()
    const metaA = await store(schema)
    const metaB = await store(schema)
    // Both create the database at once: one does, the other opens what it made.
    ;[a, b] = await Promise.all([
      Database.open({ meta: metaA, shared: true }),
      Database.open({ meta: metaB, shared: true }),
    ])
  })

  afterEach(async () => {
    await a.close()
    await b.close()
  })

  it('lands every concurrent write of distinct paths from both nodes, with exact totals', async () => {
    let bytes = 0
    const writes: Promise<unknown>[] = []
    for (let i = 0; i < 30; i++) {
      for (const [node, db] of [
        ['a', a],
        ['b', b],
      ] as const) {
        const data = `${node} wrote ${i} ${'y'.repeat(i * 11)}`
        bytes += data.length
        writes.push(db.writeFile(`/${node}/f${i}.txt`, data))
      }
    }
    // A large one too: chunks in PostgreSQL as well.
    const big = randomBytes(400_000)
    bytes += big.length
    writes.push(b.writeFile('/b/big.bin', big))
    await Promise.all(writes)
    for (const db of [a, b]) {
      const listed = await paths(db.list('/', { depth: -1 }))
      expect(listed).toHaveLength(61)
      expect(await db.count('/a')).toBe(30)
      expect(await db.count('/b')).toBe(31)
      await db.refresh()
      expect(db.stats().counts.files).toBe(61)
      expect(db.stats().sizes.logicalData).toBe(bytes)
    }
    expect(Buffer.from(await a.readFile('/b/big.bin')).equals(big)).toBe(true)
    expect(a.head()).toBe(b.head())
  })

  it('lets exactly one of 20 concurrent If-Match writes split over both nodes win, each round', async () => {
    let current = (await a.writeFile('/race.txt', 'round 0')).hash
    for (let round = 1; round <= 5; round++) {
      const settled = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a : b).writeFile('/race.txt', `round ${round} by ${i}`, {
            ifMatch: current,
          }),
        ),
      )
      const winners = settled.flatMap((s, i) =>
        s.status === 'fulfilled' ? [{ i, ...s.value }] : [],
      )
      expect(winners).toHaveLength(1)
      for (const s of settled)
        if (s.status === 'rejected')
          expect(isEngineError(s.reason, 'PRECONDITION_FAILED')).toBe(true)
      const winner = winners[0] as (typeof winners)[number]
      expect(text(await b.readFile('/race.txt'))).toBe(`round ${round} by ${winner.i}`)
      expect(text(await a.readFile('/race.txt'))).toBe(`round ${round} by ${winner.i}`)
      current = winner.hash
    }
  })

  it('loses no increment of a counter both nodes update with If-Match retries', async () => {
    await a.writeFile('/counter', '0')
    const increment = async (db: Database): Promise<void> => {
      for (;;) {
        const entry = await db.stat('/counter')
        const value = Number(text(await db.readFile('/counter')))
        const code = await codeOf(
          db.writeFile('/counter', String(value + 1), { ifMatch: entry.hash }),
        )
        if (code === undefined) return
        expect(code).toBe('PRECONDITION_FAILED')
      }
    }
    await Promise.all(Array.from({ length: 30 }, (_, i) => increment(i % 2 === 0 ? a : b)))
    expect(text(await b.readFile('/counter'))).toBe('30')
    expect(text(await a.readFile('/counter'))).toBe('30')
  })

  it('shows a snapshot created on A to B; of one name created on both, one wins', async () => {
    await a.writeFile('/doc.txt', 'v1')
    const made = await a.snapshots.create('first')
    expect(await b.snapshots.get('first')).toEqual(made)
    await b.refresh()
    expect(text(await b.at({ snapshot: 'first' }).readFile('/doc.txt'))).toBe('v1')
    const codes = await Promise.all([
      codeOf(a.snapshots.create('second')),
      codeOf(b.snapshots.create('second')),
    ])
    expect(codes.filter((c) => c === undefined)).toHaveLength(1)
    expect(codes.filter((c) => c === 'CONFLICT')).toHaveLength(1)
  })

  it('gives B the history of what A wrote, in order, one chain of sequences', async () => {
    const versions: string[] = []
    for (let i = 0; i < 5; i++) {
      const [mine] = await Promise.all([
        a.writeFile('/h.txt', `version ${i}`),
        b.writeFile(`/noise/${i}`, `noise ${i}`),
      ])
      versions.push(mine.version)
    }
    const items = await b.history('/h.txt')
    expect(items.map((item) => item.changeType)).toEqual([
      'modified',
      'modified',
      'modified',
      'modified',
      'added',
    ])
    expect(items.map((item) => item.version)).toEqual([...versions].reverse())
    const reader = await store(schema)
    try {
      const log = await versionLog(reader)
      expect(log.map((r) => r.seq)).toEqual(log.map((_, i) => i + 1))
      const heads = log.filter((r) => r.ref === 'HEAD')
      for (let i = 1; i < heads.length; i++) expect(heads[i]?.from).toBe(heads[i - 1]?.to)
    } finally {
      await reader.close()
    }
  })

  it('deletes on B what A just wrote, and B reads every write A acknowledged', async () => {
    for (let i = 0; i < 8; i++) {
      const written = await a.writeFile(`/seen/${i}.txt`, `value ${i}`)
      expect(text(await b.readFile(`/seen/${i}.txt`))).toBe(`value ${i}`)
      expect((await b.stat(`/seen/${i}.txt`)).hash).toBe(written.hash)
      expect(await new Response(b.createReadStream(`/seen/${i}.txt`)).text()).toBe(`value ${i}`)
      await b.delete(`/seen/${i}.txt`)
      expect(await codeOf(a.stat(`/seen/${i}.txt`))).toBe('NOT_FOUND')
    }
  })

  it('refuses GC', async () => {
    expect(await codeOf(a.gc())).toBe('CONFLICT')
  })
})
