import { MemoryLevel } from 'memory-level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { countingView, unclosedView } from '../test/support/shared-meta-store'
import { Database } from './database'
import { isEngineError } from './errors'
import { COMMIT_TOKEN_KEY } from './meta/keys'
import { createLevelMetaStore } from './meta/level-meta-store'
import type { MetaStore } from './meta/meta-store'
import { MAX_SHARED_ATTEMPTS } from './commit/committer'
import { readVersionLog } from './state/version-log'
import type { LogRecord } from './state/version-log'

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise
    return undefined
  } catch (err) {
    if (isEngineError(err)) return err.code
    throw err
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

/** Every version log record, oldest first. */
async function versionLog(meta: MetaStore): Promise<LogRecord[]> {
  return collect(readVersionLog(meta))
}

describe('shared database (two nodes on one metadata store)', () => {
  let level: MemoryLevel<string, Uint8Array>
  let meta: MetaStore
  let a: Database
  let b: Database

  beforeEach(async () => {
    level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    meta = createLevelMetaStore(level)
    // Both create the database at once: one does, the other opens what it made.
    ;[a, b] = await Promise.all([
      Database.open({ meta: unclosedView(meta), shared: true }),
      Database.open({ meta: unclosedView(meta), shared: true }),
    ])
  })

  afterEach(async () => {
    await a.close()
    await b.close()
    await meta.close()
  })

  it('lands every concurrent write of distinct paths from both nodes, with exact totals', async () => {
    const sizes = new Map<string, number>()
    const writes: Promise<unknown>[] = []
    for (let i = 0; i < 40; i++) {
      for (const [node, db] of [
        ['a', a],
        ['b', b],
      ] as const) {
        const path = `/${node}/f${i}.txt`
        const data = `${node} wrote file ${i} ${'x'.repeat(i * 7)}`
        sizes.set(path, data.length)
        writes.push(db.writeFile(path, data))
      }
    }
    await Promise.all(writes)
    const total = [...sizes.values()].reduce((sum, n) => sum + n, 0)
    for (const db of [a, b]) {
      const listed = await collect(db.list('/', { depth: -1 }))
      expect(new Set(listed.map((e) => e.path))).toEqual(new Set(sizes.keys()))
      for (const entry of listed) expect(entry.size).toBe(sizes.get(entry.path))
      expect(await db.count('/a')).toBe(40)
      expect(await db.count('/b')).toBe(40)
      await db.refresh()
      const stats = db.stats()
      expect(stats.counts.files).toBe(80)
      expect(stats.counts.directories).toBe(2)
      expect(stats.sizes.logicalData).toBe(total)
    }
    // Stored counters are the sum of both nodes' tallies: every content is distinct, small.
    expect(a.stats().counts.chunks).toBe(80)
    expect(b.stats().counts.chunks).toBe(80)
    expect(a.head()).toBe(b.head())
  })

  it('lets exactly one of 20 concurrent If-Match writes split over both nodes win, each round', async () => {
    let current = (await a.writeFile('/race.txt', 'round 0')).hash
    for (let round = 1; round <= 5; round++) {
      const attempts = Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).writeFile('/race.txt', `round ${round} by writer ${i}`, {
          ifMatch: current,
        }),
      )
      const settled = await Promise.allSettled(attempts)
      const winners = settled.flatMap((s, i) =>
        s.status === 'fulfilled' ? [{ i, ...s.value }] : [],
      )
      expect(winners).toHaveLength(1)
      for (const s of settled)
        if (s.status === 'rejected')
          expect(isEngineError(s.reason, 'PRECONDITION_FAILED')).toBe(true)
      const winner = winners[0] as (typeof winners)[number]
      expect(text(await a.readFile('/race.txt'))).toBe(`round ${round} by writer ${winner.i}`)
      expect(text(await b.readFile('/race.txt'))).toBe(`round ${round} by writer ${winner.i}`)
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
    await Promise.all(Array.from({ length: 40 }, (_, i) => increment(i % 2 === 0 ? a : b)))
    expect(text(await b.readFile('/counter'))).toBe('40')
    expect(text(await a.readFile('/counter'))).toBe('40')
  })

  it('lets exactly one node create a file with If-None-Match', async () => {
    for (let round = 0; round < 5; round++) {
      const settled = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? a : b).writeFile(`/once-${round}`, `writer ${i}`, { ifNoneMatch: '*' }),
        ),
      )
      expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1)
    }
  })

  it('shows a snapshot created on A to B, and refuses the same name from both but once', async () => {
    await a.writeFile('/doc.txt', 'v1')
    const made = await a.snapshots.create('first', { metadata: { by: 'a' } })
    expect(await b.snapshots.get('first')).toEqual(made)
    expect((await b.snapshots.list()).map((s) => s.name)).toEqual(['first'])
    await b.refresh()
    expect(text(await b.at({ snapshot: 'first' }).readFile('/doc.txt'))).toBe('v1')
    const codes = await Promise.all([
      codeOf(a.snapshots.create('second')),
      codeOf(b.snapshots.create('second')),
    ])
    expect(codes.sort()).toEqual(['CONFLICT', undefined].sort())
    await a.refresh()
    expect(a.stats().counts.snapshots).toBe(2)
    expect(b.stats().counts.snapshots).toBe(2)
    await b.forks.create('work')
    expect((await a.forks.get('work')).base).toBe(made.version)
    await a.fork('work').writeFile('/doc.txt', 'on the fork')
    expect(text(await b.fork('work').readFile('/doc.txt'))).toBe('on the fork')
  })

  it('gives B the history of what A wrote, in order, with one chain of sequences', async () => {
    const versions: string[] = []
    for (let i = 0; i < 6; i++) {
      const [mine] = await Promise.all([
        a.writeFile('/h.txt', `version ${i}`),
        b.writeFile(`/noise/${i}`, `noise ${i}`),
      ])
      versions.push(mine.version)
    }
    await a.delete('/h.txt')
    const items = await b.history('/h.txt')
    expect(items.map((item) => item.changeType)).toEqual([
      'deleted',
      'modified',
      'modified',
      'modified',
      'modified',
      'modified',
      'added',
    ])
    expect(items.slice(1).map((item) => item.version)).toEqual([...versions].reverse())
    const log = await versionLog(meta)
    expect(log.map((r) => r.seq)).toEqual(log.map((_, i) => i + 1))
    const heads = log.filter((r) => r.ref === 'HEAD')
    // Each HEAD move starts where the one before it ended: nothing was overwritten or lost.
    for (let i = 1; i < heads.length; i++) expect(heads[i]?.from).toBe(heads[i - 1]?.to)
    expect(heads.at(-1)?.to).toBe(b.head())
  })

  it('deletes on B a file A just wrote, with no refresh in between', async () => {
    for (let i = 0; i < 10; i++) {
      await a.writeFile(`/gone-${i}.txt`, `written by a ${i}`)
      expect((await b.delete(`/gone-${i}.txt`)).entryType).toBe('file')
      expect(await codeOf(a.stat(`/gone-${i}.txt`))).toBe('NOT_FOUND')
    }
  })

  it('shows B every write A acknowledged, at once, in every read', async () => {
    for (let i = 0; i < 15; i++) {
      const written = await a.writeFile(`/seen/${i % 3}.txt`, `value ${i}`)
      expect(text(await b.readFile(`/seen/${i % 3}.txt`))).toBe(`value ${i}`)
      expect((await b.stat(`/seen/${i % 3}.txt`)).hash).toBe(written.hash)
      expect(await b.count('/seen')).toBe(Math.min(i + 1, 3))
      const streamed = await new Response(b.createReadStream(`/seen/${i % 3}.txt`)).text()
      expect(streamed).toBe(`value ${i}`)
    }
    await a.symlink('/link', '/seen/0.txt')
    expect(await b.readlink('/link')).toBe('/seen/0.txt')
  })

  it('races HEAD moves with expectHead: one wins, and the HEAD log keeps both nodes apart', async () => {
    const base = (await a.writeFile('/p.txt', 'base')).version
    const one = (await a.writeFile('/p.txt', 'one')).version
    const two = (await b.writeFile('/p.txt', 'two')).version
    const codes = await Promise.all([
      codeOf(a.promote(one, { expectHead: two, by: 'a' })),
      codeOf(b.promote(base, { expectHead: two, by: 'b' })),
    ])
    expect(codes.filter((c) => c === undefined)).toHaveLength(1)
    expect(codes.filter((c) => c === 'CONFLICT')).toHaveLength(1)
    await a.promote(two, { by: 'a' })
    await b.promote(one, { by: 'b' })
    const { items } = await a.headLog()
    expect(items).toHaveLength(3)
    expect(items[0]?.head).toBe(one)
    expect(items[1]?.head).toBe(two)
    expect(items[0]?.by).toBe('b')
  })

  it('refuses GC, and shared without meta', async () => {
    expect(await codeOf(a.gc())).toBe('CONFLICT')
    expect(await codeOf(a.gc({ dryRun: true }))).toBe('CONFLICT')
    const other = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    expect(await codeOf(Database.open({ level: other, shared: true }))).toBe('INVALID_INPUT')
    expect(await codeOf(Database.open({ path: '/nonexistent/x', shared: true }))).toBe(
      'INVALID_INPUT',
    )
    await other.close()
  })

  it('raises the commit token once per committed group', async () => {
    const before = Number(text((await meta.get('meta', COMMIT_TOKEN_KEY)) as Uint8Array))
    const { version } = await b.writeFile('/t.txt', 't')
    const after = Number(text((await meta.get('meta', COMMIT_TOKEN_KEY)) as Uint8Array))
    expect(after).toBe(before + 1)
    await a.refresh()
    expect(a.head()).toBe(version)
  })
})

describe('shared database against a store where other nodes always commit first', () => {
  it('gives up after a bounded number of attempts with CONFLICT, changing nothing', async () => {
    const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    const meta = createLevelMetaStore(level)
    const setup = await Database.open({ meta: unclosedView(meta), shared: true })
    await setup.writeFile('/kept.txt', 'kept')
    await setup.close()
    const view = countingView(meta, { loseGuarded: () => true })
    const db = await Database.open({ meta: view, shared: true })
    expect(await codeOf(db.writeFile('/lost.txt', 'lost'))).toBe('CONFLICT')
    expect(view.calls.guarded).toBe(MAX_SHARED_ATTEMPTS)
    expect(await codeOf(db.stat('/lost.txt'))).toBe('NOT_FOUND')
    expect(text(await db.readFile('/kept.txt'))).toBe('kept')
    await db.close()
    await meta.close()
  })
})

describe('database not shared', () => {
  it('reads no commit token and guards no batch', async () => {
    const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    const meta = createLevelMetaStore(level)
    const view = countingView(meta)
    const db = await Database.open({ meta: view })
    for (let i = 0; i < 5; i++) await db.writeFile(`/f${i}`, `data ${i}`)
    for (let i = 0; i < 5; i++) await db.readFile(`/f${i}`)
    await db.snapshots.list()
    await db.history('/f0')
    expect(view.calls.guarded).toBe(0)
    expect(view.calls.tokenReads).toBe(0)
    expect(await meta.get('meta', COMMIT_TOKEN_KEY)).toBeUndefined()
    await db.close()
    await meta.close()
  })
})
