import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openMemoryDatabase, rejectsWith } from '../../test/engine-test-kit'
import type { Database } from '../database'
import type { QueryOptions } from '../read/query-types'

let db: Database
beforeEach(async () => {
  db = (await openMemoryDatabase()).db
})
afterEach(() => db.close())

const config = (indexes: { field: string; type: string }[], glob?: string) =>
  JSON.stringify(glob === undefined ? { indexes } : { glob, indexes })

/** Every answer of a query, page by page. */
async function all(options: QueryOptions, view: { query: Database['query'] } = db) {
  const paths: string[] = []
  let after: string | undefined
  for (;;) {
    const page = await view.query(after === undefined ? options : { ...options, after })
    paths.push(...page.items.map((i) => i.path))
    if (page.next === undefined) return paths
    after = page.next
  }
}

describe('index configuration', () => {
  it('refuses a bad configuration with a clear error and stores nothing', async () => {
    const cases: [string, RegExp][] = [
      ['not json', /not JSON/],
      ['[]', /JSON object/],
      ['{"indexes": [{"field": "status", "type": "string"}]}', /JSON pointer/],
      ['{"indexes": [{"field": "/a", "type": "date"}]}', /type must be one of/],
      ['{"indexes": [{"field": "@nope", "type": "string"}]}', /unknown virtual field/],
      ['{"indexes": [], "extra": 1}', /unknown field "extra"/],
    ]
    for (const [text, message] of cases) {
      const err = await db.writeFile('/docs/.svcdb/indexes.json', text).catch((e: unknown) => e)
      expect((err as { code?: string }).code).toBe('INVALID_INPUT')
      expect((err as Error).message).toMatch(message)
    }
    await rejectsWith(db.stat('/docs/.svcdb/indexes.json'), 'NOT_FOUND')
  })
})

describe('queries', () => {
  beforeEach(async () => {
    await db.writeFile(
      '/orders/.svcdb/indexes.json',
      config([
        { field: '/status', type: 'string' },
        { field: '/total', type: 'number' },
        { field: '@size', type: 'number' },
      ]),
    )
    const orders = [
      ['a.json', { status: 'open', total: 30 }],
      ['b.json', { status: 'closed', total: 10 }],
      ['c.json', { status: 'open', total: 20 }],
      ['d.json', { status: 'open' }],
      ['e.json', { status: 7, total: 5 }],
    ] as const
    for (const [name, doc] of orders) await db.writeFile(`/orders/${name}`, JSON.stringify(doc))
    await db.writeFile('/orders/notes.txt', 'not json')
  })

  it('answers the same by index as by scan, and says which it used', async () => {
    const where = { field: '/status', op: 'eq' as const, value: 'open' }
    const scanned = await db.query({ path: '/orders', where })
    expect(scanned.plan).toBe('scan')
    expect(scanned.items.map((i) => i.name)).toEqual(['a.json', 'c.json', 'd.json'])
    const result = await db.reindex('/orders')
    expect(result).toMatchObject({ documents: 6, built: true })
    const indexed = await db.query({ path: '/orders', where })
    expect(indexed.plan).toBe('index')
    expect(indexed.items).toEqual(scanned.items)
    expect((await db.reindex('/orders')).built).toBe(false)
  })

  it('orders by a field, keeping documents that have it, both ways, across pages', async () => {
    await db.reindex('/orders')
    const by = (direction: 'asc' | 'desc') =>
      all({ path: '/orders', orderBy: { field: '/total', direction }, limit: 2 })
    expect(await by('asc')).toEqual([
      '/orders/e.json',
      '/orders/b.json',
      '/orders/c.json',
      '/orders/a.json',
    ])
    expect(await by('desc')).toEqual([
      '/orders/a.json',
      '/orders/c.json',
      '/orders/b.json',
      '/orders/e.json',
    ])
    const range = await db.query({
      path: '/orders',
      where: {
        and: [
          { field: '/total', op: 'gte', value: 10 },
          { field: '/total', op: 'lt', value: 30 },
        ],
      },
      orderBy: '/total',
    })
    expect(range.plan).toBe('index')
    expect(range.items.map((i) => i.name)).toEqual(['b.json', 'c.json'])
  })

  it('keeps indexes exact through writes, deletes, moves and copies, in one batch', async () => {
    await db.reindex('/orders')
    await db.writeFile('/orders/f.json', JSON.stringify({ status: 'open', total: 1 }))
    await db.writeFile('/orders/a.json', JSON.stringify({ status: 'closed', total: 30 }))
    await db.delete('/orders/c.json')
    await db.move('/orders/b.json', '/orders/g.json')
    await db.copy('/orders/g.json', '/orders/h.json')
    const open = await db.query({
      path: '/orders',
      where: { field: '/status', op: 'eq', value: 'open' },
    })
    expect(open.plan).toBe('index')
    expect(open.items.map((i) => i.name)).toEqual(['d.json', 'f.json'])
    const closed = await all({
      path: '/orders',
      where: { field: '/status', op: 'eq', value: 'closed' },
    })
    expect(closed).toEqual(['/orders/a.json', '/orders/g.json', '/orders/h.json'])
  })

  it('answers for the version asked: snapshots, forks and versions', async () => {
    await db.reindex('/orders')
    await db.snapshots.create('before')
    await db.forks.create('trial')
    await db.writeFile('/orders/z.json', JSON.stringify({ status: 'open', total: 99 }))
    await db.fork('trial').delete('/orders/a.json')
    const where = { field: '/status', op: 'eq' as const, value: 'open' }
    const names = async (view: { query: Database['query'] }) =>
      (await view.query({ path: '/orders', where })).items.map((i) => i.name)
    expect(await names(db)).toEqual(['a.json', 'c.json', 'd.json', 'z.json'])
    expect(await names(db.at({ snapshot: 'before' }))).toEqual(['a.json', 'c.json', 'd.json'])
    expect(await names(db.fork('trial'))).toEqual(['c.json', 'd.json'])
    const forkPlan = await db.fork('trial').query({ path: '/orders', where })
    expect(forkPlan.plan).toBe('index')
  })

  it('pages over the version of the first page, whatever is written meanwhile', async () => {
    await db.reindex('/orders')
    const first = await db.query({ path: '/orders', orderBy: '@path', limit: 2 })
    await db.writeFile('/orders/aa.json', JSON.stringify({ status: 'open' }))
    await db.delete('/orders/d.json')
    const rest = await all({
      path: '/orders',
      orderBy: '@path',
      limit: 2,
      after: first.next as string,
    })
    expect([...first.items.map((i) => i.path), ...rest]).toEqual(
      ['a.json', 'b.json', 'c.json', 'd.json', 'e.json', 'notes.txt'].map((n) => `/orders/${n}`),
    )
  })

  it('refuses bad queries and foreign cursors with INVALID_INPUT', async () => {
    const bad: QueryOptions[] = [
      { path: '/orders', where: { field: 'status', op: 'eq', value: 1 } },
      { path: '/orders', where: { field: '/status', op: 'like' as never, value: 'x' } },
      { path: '/orders', where: { field: '/total', op: 'eq', value: 'ten' } },
      { path: '/orders', where: { field: '/total', op: 'prefix', value: 1 } },
      { path: '/orders', where: { and: [] } },
      { path: '/orders', orderBy: '/unknown' },
      { path: '/orders', limit: 0 },
      { path: '/orders', after: 'garbage' },
    ]
    for (const options of bad) await rejectsWith(db.query(options), 'INVALID_INPUT')
    const page = await db.query({ path: '/orders', limit: 1 })
    await rejectsWith(
      db.query({ path: '/orders', limit: 1, orderBy: '@size', after: page.next as string }),
      'INVALID_INPUT',
    )
    await rejectsWith(db.query({ path: '/nowhere' }), 'NOT_FOUND')
  })

  it('leaves out what the caller may not read', async () => {
    const page = await db.query({ path: '/orders', canRead: (p) => !p.endsWith('a.json') })
    expect(page.items.map((i) => i.name)).not.toContain('a.json')
    expect(page.items).toHaveLength(5)
  })

  it('stops a reindex at its signal, recording nothing', async () => {
    for (let i = 0; i < 600; i++) await db.writeFile(`/big/${i}.json`, JSON.stringify({ n: i }))
    await db.writeFile('/big/.svcdb/indexes.json', config([{ field: '/n', type: 'number' }]))
    const controller = new AbortController()
    const progress: number[] = []
    const run = db.reindex('/big', {
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p.done)
        if (p.done >= 256) controller.abort()
      },
    })
    await rejectsWith(run, 'ABORTED')
    expect(progress[0]).toBe(256)
    expect((await db.query({ path: '/big', orderBy: '/n', limit: 1 })).plan).toBe('scan')
    const done = await db.reindex('/big', { onProgress: (p) => void progress.push(p.total) })
    expect(done.documents).toBe(600)
    expect((await db.query({ path: '/big', orderBy: '/n', limit: 1 })).plan).toBe('index')
  })
})

describe('indexes and garbage collection', () => {
  it('keeps the indexes of live versions and drops those of versions gone', async () => {
    // A short version log: old versions (and the indexes of their directories) become garbage.
    const kit = await openMemoryDatabase(1_700_000_000_000, { versionLogLimit: 2 })
    const local = kit.db
    try {
      await local.writeFile('/d/.svcdb/indexes.json', config([{ field: '/n', type: 'number' }]))
      for (let i = 0; i < 20; i++) await local.writeFile(`/d/${i}.json`, JSON.stringify({ n: i }))
      await local.reindex('/d')
      for (let i = 0; i < 20; i++)
        await local.writeFile(`/d/${i}.json`, JSON.stringify({ n: -i - 1 }))
      expect(await kit.countKeys('idx')).toBe(21)
      await local.gc()
      // Only HEAD and the log's two versions remain, and with them their indexes.
      const left = await kit.countKeys('idx')
      expect(left).toBeGreaterThan(0)
      expect(left).toBeLessThanOrEqual(3)
      const page = await local.query({ path: '/d', orderBy: '/n', limit: 3 })
      expect(page.plan).toBe('index')
      expect(page.items.map((i) => i.name)).toEqual(['19.json', '18.json', '17.json'])
    } finally {
      await local.close()
    }
  })
})

describe('nested documents', () => {
  it('keeps a ** index exact as subdirectories move in, out and away', async () => {
    await db.writeFile(
      '/lib/.svcdb/indexes.json',
      config([{ field: '/tag', type: 'string' }], '**/*.json'),
    )
    await db.writeFile('/lib/a/x.json', JSON.stringify({ tag: 'keep' }))
    await db.writeFile('/lib/a/b/y.json', JSON.stringify({ tag: 'keep' }))
    await db.writeFile('/lib/a/b/note.txt', 'not a document')
    await db.writeFile('/outside/z.json', JSON.stringify({ tag: 'keep' }))
    await db.reindex('/lib')
    const keep = () => all({ path: '/lib', where: { field: '/tag', op: 'eq', value: 'keep' } })
    expect(await keep()).toEqual(['/lib/a/b/y.json', '/lib/a/x.json'])
    await db.move('/outside', '/lib/in')
    await db.move('/lib/a/b', '/moved-out')
    await db.copy('/lib/a', '/lib/copy')
    expect(await keep()).toEqual(['/lib/a/x.json', '/lib/copy/x.json', '/lib/in/z.json'])
    await db.delete('/lib/a', { recursive: true })
    const page = await db.query({ path: '/lib', where: { field: '/tag', op: 'eq', value: 'keep' } })
    expect(page.plan).toBe('index')
    expect(page.items.map((i) => i.path)).toEqual(['/lib/copy/x.json', '/lib/in/z.json'])
  })
})
