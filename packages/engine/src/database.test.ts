import { randomBytes } from 'node:crypto'
import { MemoryLevel } from 'memory-level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Database } from './database'
import type { Entry } from './read/entry'
import { isEngineError } from './errors'
import type { EngineErrorCode } from './errors'

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

async function rejectsWith(promise: Promise<unknown>, code: EngineErrorCode): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(isEngineError(err, code), `expected ${code}, got ${String(err)}`).toBe(true)
}

async function collect(iterable: AsyncIterable<Entry>): Promise<Entry[]> {
  const out: Entry[] = []
  for await (const e of iterable) out.push(e)
  return out
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = []
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(part)
  return Buffer.concat(parts)
}

describe('Database (memory-level)', () => {
  let db: Database
  let time: number
  beforeEach(async () => {
    time = 1_700_000_000_000
    db = await Database.open({ level: new MemoryLevel(), clock: { now: () => time } })
  })
  afterEach(async () => {
    await db.close()
  })

  it('gives pinned views: later writes do not change what a view reads', async () => {
    await db.writeFile('/doc.txt', 'first')
    const view = db.view()
    const forkView = await db.forks.create('f').then(() => db.fork('f').view())
    await db.writeFile('/doc.txt', 'second, longer')
    await db.fork('f').writeFile('/doc.txt', 'fork')
    expect(view.version).not.toBe(db.head())
    expect((await view.stat('/doc.txt')).size).toBe(5)
    expect(text(await view.readFile('/doc.txt'))).toBe('first')
    expect(text(await forkView.readFile('/doc.txt'))).toBe('first')
    expect(text(await db.view().readFile('/doc.txt'))).toBe('second, longer')
  })

  it('writes and reads files from bytes, text and streams', async () => {
    const bytes = randomBytes(1000)
    await db.writeFile('/a/bytes.bin', bytes)
    await db.writeFile('/a/text.txt', 'héllo', { contentType: 'text/plain' })
    await db.writeFile(
      '/a/iter.bin',
      (async function* () {
        yield bytes.subarray(0, 10)
        yield bytes.subarray(10)
      })(),
    )
    await db.writeFile('/a/stream.bin', new Blob([bytes]).stream())
    expect(Buffer.from(await db.readFile('/a/bytes.bin'))).toEqual(bytes)
    expect(text(await db.readFile('/a/text.txt'))).toBe('héllo')
    expect(Buffer.from(await db.readFile('a/iter.bin'))).toEqual(bytes)
    expect(Buffer.from(await db.readFile('/a/stream.bin'))).toEqual(bytes)
    const stat = await db.stat('/a/text.txt')
    expect(stat).toMatchObject({
      path: '/a/text.txt',
      name: 'text.txt',
      entryType: 'file',
      size: 6,
      contentType: 'text/plain',
    })
    expect(stat.hash).toMatch(/^[0-9a-f]{64}$/)
    expect((await db.stat('/a/bytes.bin')).hash).toBe((await db.stat('/a/stream.bin')).hash)
  })

  it('reports created on the first write, keeps createdAt on overwrite and moves updatedAt', async () => {
    const first = await db.writeFile('/f', 'one')
    time += 1000
    const second = await db.writeFile('/f', 'two', { metadata: { owner: 'ann' } })
    expect(first.created).toBe(true)
    expect(second.created).toBe(false)
    expect(second.createdAt).toBe(first.createdAt)
    expect(second.updatedAt).toBe(first.updatedAt + 1000)
    expect((await db.stat('/f')).metadata).toEqual({ owner: 'ann' })
    expect(second.version).toBe(db.head())
  })

  it('stores large content in chunks and serves byte ranges', async () => {
    const big = randomBytes(3 * 1024 * 1024 + 17)
    const written = await db.writeFile('/big.bin', big)
    expect(written.size).toBe(big.length)
    expect(Buffer.from(await db.readFile('/big.bin')).equals(big)).toBe(true)
    expect((await readAll(db.createReadStream('/big.bin'))).equals(big)).toBe(true)
    for (const [start, end] of [
      [0, 0],
      [100, 200_000],
      [1_000_000, 2_500_000],
      [big.length - 5, big.length - 1],
    ] as const) {
      expect(
        (await readAll(db.createReadStream('/big.bin', { start, end }))).equals(
          big.subarray(start, end + 1),
        ),
      ).toBe(true)
    }
    expect(db.stats().counts.chunks).toBeGreaterThan(10)
  })

  it('deduplicates identical content', async () => {
    const big = randomBytes(2 * 1024 * 1024)
    await db.writeFile('/one', big)
    const chunks = db.stats().counts.chunks
    const stored = db.stats().sizes.chunkData
    await db.writeFile('/two', big)
    expect(db.stats().counts.chunks).toBe(chunks)
    expect(db.stats().sizes.chunkData).toBe(stored)
    expect(db.stats().sizes.logicalData).toBe(2 * big.length)
    expect(db.stats().sizes.dedupSavings).toBe(big.length)
  })

  it('gives every write a new version and keeps old versions readable', async () => {
    const empty = db.head()
    const v1 = (await db.writeFile('/doc', 'v1')).version
    const v2 = (await db.writeFile('/doc', 'v2')).version
    expect(new Set([empty, v1, v2]).size).toBe(3)
    expect(text(await db.at(v1).readFile('/doc'))).toBe('v1')
    expect(text(await db.readFile('/doc'))).toBe('v2')
    await rejectsWith(db.at(empty).readFile('/doc'), 'NOT_FOUND')
    expect(() => db.at('nope')).toThrow(/64 hex digits/)
    await rejectsWith(db.at('ab'.repeat(32)).stat('/'), 'NOT_FOUND')
  })

  it('gives equal version hashes to equal trees, whatever the order of writes', async () => {
    const other = await Database.open({ level: new MemoryLevel(), clock: { now: () => 5 } })
    const third = await Database.open({ level: new MemoryLevel(), clock: { now: () => 5 } })
    const files = Array.from(
      { length: 40 },
      (_, i) => [`/d${i % 3}/f${i}`, `content ${i}`] as const,
    )
    for (const [p, c] of files) await other.writeFile(p, c)
    for (const [p, c] of [...files].reverse()) await third.writeFile(p, c)
    await third.writeFile('/tmp/x', 'x')
    await third.delete('/tmp', { recursive: true })
    expect(third.head()).toBe(other.head())
    await other.close()
    await third.close()
  })

  it('lists directories in name order, recursively, by glob, with limit and after', async () => {
    for (const p of [
      '/docs/b.md',
      '/docs/a.txt',
      '/docs/sub/c.md',
      '/docs/sub/deeper/d.md',
      '/top.txt',
    ])
      await db.writeFile(p, p)
    await db.symlink('/docs/link', 'a.txt')
    const children = await collect(db.list('/docs'))
    expect(children.map((e) => [e.name, e.entryType])).toEqual([
      ['a.txt', 'file'],
      ['b.md', 'file'],
      ['link', 'symlink'],
      ['sub', 'directory'],
    ])
    expect(children.find((e) => e.name === 'link')?.target).toBe('a.txt')
    expect(children.find((e) => e.name === 'sub')?.size).toBe(
      '/docs/sub/c.md'.length + '/docs/sub/deeper/d.md'.length,
    )
    const all = await collect(db.list('/docs', { depth: -1 }))
    expect(all.map((e) => e.path)).toEqual([
      '/docs/a.txt',
      '/docs/b.md',
      '/docs/sub/c.md',
      '/docs/sub/deeper/d.md',
    ])
    expect(
      (await collect(db.list('/docs', { depth: -1, glob: '**/*.md' }))).map((e) => e.name),
    ).toEqual(['b.md', 'c.md', 'd.md'])
    expect((await collect(db.list('/docs', { limit: 2 }))).map((e) => e.name)).toEqual([
      'a.txt',
      'b.md',
    ])
    expect((await collect(db.list('/docs', { after: 'b.md' }))).map((e) => e.name)).toEqual([
      'link',
      'sub',
    ])
    expect(
      (await collect(db.list('/docs', { depth: -1, after: 'sub/c.md' }))).map((e) => e.name),
    ).toEqual(['d.md'])
    expect((await collect(db.list('/'))).map((e) => e.name)).toEqual(['docs', 'top.txt'])
    await rejectsWith(collect(db.list('/top.txt')), 'NOT_A_DIRECTORY')
    await rejectsWith(collect(db.list('/missing')), 'NOT_FOUND')
  })

  it('creates, moves, copies and deletes entries', async () => {
    await db.mkdir('/m/n')
    await db.mkdir('/m/n')
    expect((await db.stat('/m/n')).entryType).toBe('directory')
    await db.writeFile('/m/n/f', 'data')
    await db.copy('/m/n', '/copy')
    await db.move('/m/n/f', '/m/g')
    expect(text(await db.readFile('/copy/f'))).toBe('data')
    expect(text(await db.readFile('/m/g'))).toBe('data')
    await rejectsWith(db.stat('/m/n/f'), 'NOT_FOUND')
    await rejectsWith(db.move('/m/g', '/copy/f'), 'CONFLICT')
    await rejectsWith(db.move('/m', '/m/inside'), 'INVALID_PATH')
    await rejectsWith(db.move('/nope', '/x'), 'NOT_FOUND')
    await rejectsWith(db.delete('/copy'), 'NOT_EMPTY')
    await db.delete('/m/n')
    await db.delete('/copy', { recursive: true })
    await rejectsWith(db.stat('/copy/f'), 'NOT_FOUND')
    await rejectsWith(db.delete('/copy'), 'NOT_FOUND')
    await rejectsWith(db.delete('/'), 'INVALID_PATH')
    expect(db.stats().counts).toMatchObject({ files: 1, directories: 1 })
  })

  it('refuses paths through files and writes over directories', async () => {
    await db.writeFile('/file', 'x')
    await db.mkdir('/dir')
    await rejectsWith(db.writeFile('/file/child', 'y'), 'NOT_A_DIRECTORY')
    await rejectsWith(db.writeFile('/dir', 'y'), 'CONFLICT')
    await rejectsWith(db.mkdir('/file'), 'CONFLICT')
    await rejectsWith(db.readFile('/dir'), 'IS_A_DIRECTORY')
    await rejectsWith(db.stat('/file/child'), 'NOT_A_DIRECTORY')
  })

  it.each([
    '/a/../b',
    '/a//b',
    '/a/./b',
    '/a\u0000b',
    '/a\nb',
    `/${'n'.repeat(256)}`,
    `/${'a/'.repeat(2100)}b`,
  ])('refuses the invalid path %j with INVALID_PATH and changes nothing', async (path) => {
    const before = db.head()
    await rejectsWith(db.writeFile(path, 'x'), 'INVALID_PATH')
    await rejectsWith(db.stat(path), 'INVALID_PATH')
    expect(db.head()).toBe(before)
  })

  it('follows symlink chains, detects loops and dangling links', async () => {
    await db.writeFile('/real/file.txt', 'target')
    await db.symlink('/l1', '/real')
    await db.symlink('/l2', 'l1')
    await db.symlink('/real/rel', '../l2/file.txt')
    expect(text(await db.readFile('/l2/file.txt'))).toBe('target')
    expect(text(await db.readFile('/real/rel'))).toBe('target')
    expect(await db.readlink('/l2')).toBe('l1')
    expect((await db.stat('/l2', { follow: false })).entryType).toBe('symlink')
    expect((await db.stat('/l2')).entryType).toBe('directory')
    await db.symlink('/loop-a', '/loop-b')
    await db.symlink('/loop-b', '/loop-a')
    await rejectsWith(db.readFile('/loop-a'), 'SYMLINK_LOOP')
    let chain = '/real/file.txt'
    for (let i = 0; i < 33; i++) {
      await db.symlink(`/chain${i}`, chain)
      chain = `/chain${i}`
    }
    expect(text(await db.readFile('/chain31'))).toBe('target')
    await rejectsWith(db.readFile('/chain32'), 'SYMLINK_LOOP')
    await db.symlink('/dangling', '/nowhere')
    await rejectsWith(db.readFile('/dangling'), 'NOT_FOUND')
    await rejectsWith(db.symlink('/real/file.txt', '/x'), 'CONFLICT')
    await rejectsWith(db.symlink('/bad', ''), 'INVALID_PATH')
  })

  it('honours ifMatch and ifNoneMatch', async () => {
    const first = await db.writeFile('/c', 'one', { ifNoneMatch: '*' })
    await rejectsWith(db.writeFile('/c', 'two', { ifNoneMatch: '*' }), 'PRECONDITION_FAILED')
    await rejectsWith(
      db.writeFile('/c', 'two', { ifMatch: '"' + '0'.repeat(64) + '"' }),
      'PRECONDITION_FAILED',
    )
    await rejectsWith(db.writeFile('/new', 'two', { ifMatch: '*' }), 'PRECONDITION_FAILED')
    const second = await db.writeFile('/c', 'two', { ifMatch: `"${first.hash}"` })
    await rejectsWith(db.writeFile('/c', 'three', { ifMatch: first.hash }), 'PRECONDITION_FAILED')
    expect(text(await db.readFile('/c'))).toBe('two')
    expect(second.hash).not.toBe(first.hash)
  })

  it('ends 50 concurrent writers to one path with exactly one of their bodies, intact', async () => {
    const bodies = Array.from({ length: 50 }, (_, i) => randomBytes(20_000 + i * 1000))
    const results = await Promise.all(bodies.map((b) => db.writeFile('/contended', b)))
    const final = Buffer.from(await db.readFile('/contended'))
    expect(bodies.filter((b) => b.equals(final))).toHaveLength(1)
    expect(results.filter((r) => r.created)).toHaveLength(1)
    expect(db.stats().counts.files).toBe(1)
  })

  it('keeps every concurrent write to different paths', async () => {
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => db.writeFile(`/many/f${i}`, `body ${i}`)),
    )
    expect(db.stats().counts.files).toBe(200)
    for (const i of [0, 99, 199]) expect(text(await db.readFile(`/many/f${i}`))).toBe(`body ${i}`)
  })

  it('leaves the previous version intact when a write fails', async () => {
    await db.writeFile('/keep', 'safe')
    const before = db.head()
    const failing = (async function* () {
      yield new Uint8Array(100_000)
      throw new Error('upload interrupted')
    })()
    await expect(db.writeFile('/keep', failing)).rejects.toThrow('upload interrupted')
    await rejectsWith(db.writeFile('/keep', 'new', { ifNoneMatch: '*' }), 'PRECONDITION_FAILED')
    expect(db.head()).toBe(before)
    expect(text(await db.readFile('/keep'))).toBe('safe')
  })

  it('records the hash algorithm chosen at creation and refuses another on reopen', async () => {
    const level = new MemoryLevel()
    const blake = await Database.open({ level, hashAlgorithm: 'blake3' })
    const written = await blake.writeFile('/f', 'hashed with blake3')
    expect(blake.stats().hashAlgorithm).toBe('blake3')
    await blake.close()
    await rejectsWith(Database.open({ level, hashAlgorithm: 'sha256' }), 'CONFLICT')
    const reopened = await Database.open({ level })
    expect(reopened.stats().hashAlgorithm).toBe('blake3')
    expect(text(await reopened.readFile('/f'))).toBe('hashed with blake3')
    expect((await reopened.stat('/f')).hash).toBe(written.hash)
    const sha = await Database.open({ level: new MemoryLevel() })
    await sha.writeFile('/f', 'hashed with blake3')
    expect((await sha.stat('/f')).hash).not.toBe(written.hash)
    expect(sha.head()).not.toBe(reopened.head())
    await sha.close()
    await reopened.close()
  })

  it('fails every call with CLOSED after close', async () => {
    await db.close()
    await rejectsWith(db.writeFile('/x', 'y'), 'CLOSED')
    await rejectsWith(db.readFile('/x'), 'CLOSED')
  })
})
