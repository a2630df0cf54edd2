import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collect, openMemoryDatabase, rejectsWith, text } from '../../test/engine-test-kit'
import type { DatabaseChange } from '../changes/database-change'
import type { Database } from '../database'

let db: Database
let kit: Awaited<ReturnType<typeof openMemoryDatabase>>
beforeEach(async () => {
  kit = await openMemoryDatabase()
  db = kit.db
})
afterEach(() => db.close())

describe('snapshots', () => {
  it('records HEAD, survives later writes, and restores it', async () => {
    await db.writeFile('/a.txt', 'one')
    const snap = await db.snapshots.create('v1', { metadata: { note: 'first' } })
    expect(snap).toEqual({
      name: 'v1',
      version: db.head(),
      createdAt: kit.clock.time,
      metadata: { note: 'first' },
    })
    await db.writeFile('/a.txt', 'two')
    await db.writeFile('/b.txt', 'bee')
    expect(text(await db.at({ snapshot: 'v1' }).readFile('/a.txt'))).toBe('one')
    await rejectsWith(db.at({ snapshot: 'v1' }).stat('/b.txt'), 'NOT_FOUND')

    const restored = await db.snapshots.restore('v1')
    expect(restored.version).toBe(snap.version)
    expect(db.head()).toBe(snap.version)
    expect(text(await db.readFile('/a.txt'))).toBe('one')
    await rejectsWith(db.stat('/b.txt'), 'NOT_FOUND')
    expect(db.stats().counts.files).toBe(1)
  })

  it('costs nothing new for an unchanged HEAD', async () => {
    await db.writeFile('/a.txt', 'one')
    const before = await kit.countKeys('obj')
    await db.snapshots.create('s1')
    await db.snapshots.create('s2')
    expect(await kit.countKeys('obj')).toBe(before)
    expect((await db.snapshots.get('s1')).version).toBe((await db.snapshots.get('s2')).version)
  })

  it('lists by name, counts in stats, deletes, and refuses duplicates and bad names', async () => {
    await db.snapshots.create('b')
    await db.snapshots.create('a')
    await rejectsWith(db.snapshots.create('a'), 'CONFLICT')
    expect((await db.snapshots.list()).map((s) => s.name)).toEqual(['a', 'b'])
    expect(db.stats().counts.snapshots).toBe(2)
    await db.snapshots.delete('a')
    await rejectsWith(db.snapshots.delete('a'), 'NOT_FOUND')
    await rejectsWith(db.snapshots.get('a'), 'NOT_FOUND')
    await rejectsWith(db.snapshots.restore('a'), 'NOT_FOUND')
    expect(db.stats().counts.snapshots).toBe(1)
    for (const bad of ['', '../x', 'a/b', '.hidden', 'x'.repeat(129), 'a b', 'é', 'f'.repeat(64)]) {
      await rejectsWith(db.snapshots.create(bad), 'INVALID_NAME')
    }
    await rejectsWith(db.snapshots.create('m', { metadata: [] as never }), 'INVALID_INPUT')
    expect((await db.snapshots.list()).map((s) => s.name)).toEqual(['b'])
  })
})

describe('forks', () => {
  it('writes beside HEAD and promotes', async () => {
    await db.writeFile('/shared.txt', 'base')
    const head = db.head()
    const info = await db.forks.create('feature')
    expect(info).toMatchObject({ name: 'feature', version: head, base: head })
    const fork = db.fork('feature')
    expect(fork.forkName).toBe('feature')
    await fork.writeFile('/new.txt', 'only on the fork')
    await fork.delete('/shared.txt')
    expect(db.head()).toBe(head)
    expect(text(await db.readFile('/shared.txt'))).toBe('base')
    await rejectsWith(db.stat('/new.txt'), 'NOT_FOUND')
    expect(text(await fork.readFile('/new.txt'))).toBe('only on the fork')
    expect((await db.forks.get('feature')).version).toBe(fork.head())
    expect(db.stats().counts).toMatchObject({ files: 1, forks: 1 })

    const promoted = await db.forks.promote('feature')
    expect(promoted).toEqual({ version: fork.head(), previous: head })
    expect(db.head()).toBe(fork.head())
    await rejectsWith(db.stat('/shared.txt'), 'NOT_FOUND')
    expect(db.stats().counts.files).toBe(1)
  })

  it('starts at a snapshot or hash, refuses unknown bases, and abandons', async () => {
    await db.writeFile('/a.txt', 'v1')
    const v1 = db.head()
    await db.snapshots.create('one')
    await db.writeFile('/a.txt', 'v2')
    await db.forks.create('from-snap', { base: 'one' })
    await db.forks.create('from-hash', { base: v1 })
    expect(text(await db.fork('from-snap').readFile('/a.txt'))).toBe('v1')
    expect(text(await db.fork('from-hash').readFile('/a.txt'))).toBe('v1')
    await rejectsWith(db.forks.create('x', { base: 'f'.repeat(64) }), 'NOT_FOUND')
    await rejectsWith(db.forks.create('y', { base: 'missing' }), 'NOT_FOUND')
    await rejectsWith(db.forks.create('one', { base: 'nope/' }), 'INVALID_NAME')
    await rejectsWith(db.forks.create('from-snap'), 'CONFLICT')
    await db.forks.abandon('from-hash')
    await rejectsWith(db.fork('from-hash').writeFile('/b.txt', 'x'), 'NOT_FOUND')
    await rejectsWith(db.fork('from-hash').readFile('/a.txt'), 'NOT_FOUND')
    await rejectsWith(db.forks.promote('from-hash'), 'NOT_FOUND')
    expect((await db.forks.list()).map((f) => f.name)).toEqual(['from-snap'])
  })
})

describe('promote, history and restoreFile', () => {
  it('promotes any stored version and refuses malformed or unknown hashes', async () => {
    await db.writeFile('/a.txt', 'one')
    const v1 = db.head()
    await db.writeFile('/a.txt', 'two')
    const v2 = db.head()
    expect(await db.promote(v1)).toEqual({ version: v1, previous: v2 })
    expect(text(await db.readFile('/a.txt'))).toBe('one')
    await rejectsWith(db.promote('nothex'), 'INVALID_HASH')
    await rejectsWith(db.promote('0'.repeat(64)), 'NOT_FOUND')
    expect(db.head()).toBe(v1)
    // A file object's hash is stored, but it is not a version.
    const fileHash = (await db.stat('/a.txt', { follow: false })).hash
    await rejectsWith(db.promote(fileHash), 'NOT_FOUND')
  })

  it('tells how a path changed across versions and snapshots', async () => {
    kit.clock.time = 1000
    await db.writeFile('/doc.txt', 'v1', { contentType: 'text/plain' })
    kit.clock.time = 2000
    await db.writeFile('/other.txt', 'unrelated')
    await db.snapshots.create('after-v1')
    kit.clock.time = 3000
    const v2 = await db.writeFile('/doc.txt', 'version 2', { contentType: 'text/markdown' })
    kit.clock.time = 4000
    await db.delete('/doc.txt')
    const deletedAt = db.head()

    const items = await db.history('/doc.txt')
    expect(items.map((i) => [i.changeType, i.timestamp, i.snapshot])).toEqual([
      ['deleted', 4000, undefined],
      ['modified', 3000, undefined],
      ['unchanged', 2000, 'after-v1'],
      ['added', 1000, undefined],
    ])
    expect(items[0]).toMatchObject({ version: deletedAt, size: 0, hash: null, contentType: null })
    expect(items[1]).toMatchObject({
      version: v2.version,
      size: 9,
      hash: v2.hash,
      contentType: 'text/markdown',
    })
    expect(await db.history('/never.txt')).toEqual([])
    await rejectsWith(db.history('../x'), 'INVALID_PATH')
  })

  it('restores a file or a whole directory from a snapshot or version', async () => {
    await db.writeFile('/docs/a.txt', 'a1')
    await db.writeFile('/docs/sub/b.txt', 'b1')
    const v1 = db.head()
    await db.snapshots.create('s')
    await db.writeFile('/docs/a.txt', 'a2')
    await db.delete('/docs/sub', { recursive: true })

    await db.restoreFile('/docs/a.txt', { snapshot: 's' })
    expect(text(await db.readFile('/docs/a.txt'))).toBe('a1')
    const result = await db.restoreFile('/docs/sub', { version: v1 })
    expect(result).toMatchObject({ path: '/docs/sub', entryType: 'directory', version: db.head() })
    expect(text(await db.readFile('/docs/sub/b.txt'))).toBe('b1')
    expect(db.stats().counts.files).toBe(2)
    await rejectsWith(db.restoreFile('/docs/none', { snapshot: 's' }), 'NOT_FOUND')
    await rejectsWith(db.restoreFile('/docs/a.txt', { snapshot: 'missing' }), 'NOT_FOUND')
    await rejectsWith(db.restoreFile('/', { snapshot: 's' }), 'INVALID_PATH')
    await rejectsWith(db.restoreFile('/docs/a.txt', { version: 'zz' }), 'INVALID_HASH')
  })
})

describe('change feed', () => {
  it('reports durable changes in commit order, to listeners and iterators', async () => {
    const heard: DatabaseChange[] = []
    const off = db.onChange((c) => heard.push(c))
    const controller = new AbortController()
    const iterated = collect(db.changes({ signal: controller.signal }))
    const w = await db.writeFile('/a.txt', 'x')
    // Emitted before the writer is answered: the change is already there.
    expect(heard.at(-1)).toMatchObject({ type: 'entries_created', version: w.version })
    await db.move('/a.txt', '/b.txt')
    await db.mkdir('/dir')
    await db.mkdir('/dir')
    await db.symlink('/link', '/b.txt')
    await db.snapshots.create('snap', { metadata: { by: 'test' } })
    await db.forks.create('f')
    await db.fork('f').writeFile('/f.txt', 'y')
    await db.delete('/b.txt')
    await db.snapshots.restore('snap')
    await db.writeFile('/bad/..', 'x').catch(() => undefined)
    off()
    controller.abort()
    const summary = heard.map((c) => {
      if (c.type === 'entries_created' || c.type === 'entries_deleted')
        return `${c.type} ${c.fork ?? 'HEAD'} ${c.entries.map((e) => `${e.path}:${e.entryType}`).join(',')}`
      if (c.type === 'version_created') return `${c.type} ${c.kind} ${c.name}`
      return `${c.type} ${c.cause}`
    })
    expect(summary).toEqual([
      'entries_created HEAD /a.txt:file',
      'entries_deleted HEAD /a.txt:file',
      'entries_created HEAD /b.txt:file',
      'entries_created HEAD /dir:directory',
      'entries_created HEAD /link:symlink',
      'version_created snapshot snap',
      'version_created fork f',
      'entries_created f /f.txt:file',
      'entries_deleted HEAD /b.txt:file',
      'version_promoted restore',
    ])
    expect(await iterated).toEqual(heard)
    const snap = heard.find((c) => c.type === 'version_created')
    expect(snap).toMatchObject({ metadata: { by: 'test' }, version: expect.any(String) })
  })

  it('fails a consumer that falls too far behind instead of growing without bound', async () => {
    const iterator = db.changes({ bufferSize: 2 })
    const first = iterator.next()
    for (let i = 0; i < 5; i++) await db.writeFile(`/f${i}`, 'x')
    expect((await first).done).toBe(false)
    await expect(collect(iterator)).rejects.toMatchObject({ code: 'OVERRUN' })
  })

  it('ends iterations when the database closes', async () => {
    const { db: other } = await openMemoryDatabase()
    const iterated = collect(other.changes())
    await other.writeFile('/a', 'x')
    await other.close()
    expect((await iterated).length).toBe(1)
  })
})

describe('file fields', () => {
  it('refuses oversized metadata and bad content types before storing anything', async () => {
    const { db, countKeys } = await openMemoryDatabase()
    const before = await countKeys('chunk')
    await rejectsWith(
      db.writeFile('/a', 'x', { metadata: { big: 'x'.repeat(70_000) } }),
      'INVALID_INPUT',
    )
    await rejectsWith(db.writeFile('/a', 'x', { metadata: ['no'] as never }), 'INVALID_INPUT')
    await rejectsWith(db.writeFile('/a', 'x', { contentType: 'text/\nplain' }), 'INVALID_INPUT')
    await rejectsWith(db.writeFile('/a', 'x', { contentType: 'x'.repeat(256) }), 'INVALID_INPUT')
    expect(await countKeys('chunk')).toBe(before)
    await db.close()
  })
})
