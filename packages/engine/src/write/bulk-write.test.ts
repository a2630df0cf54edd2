import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collect, rejectsWith, text } from '../../test/engine-test-kit'
import type { DatabaseChange } from '../changes/database-change'
import { Database } from '../database'
import { createHasher } from '../hashing/create-hasher'
import type { BulkFile, WrittenFile } from './bulk-write'

let dir: string
let db: Database
let time: number
let changes: DatabaseChange[]

async function open(path = join(dir, 'db')): Promise<Database> {
  const opened = await Database.open({ path, clock: { now: () => time } })
  opened.onChange((change) => changes.push(change))
  return opened
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-bulk-'))
  time = 1_700_000_000_000
  changes = []
  db = await open()
})
afterEach(async () => {
  await db.close()
  await rm(dir, { recursive: true, force: true })
})

const created = () => changes.filter((c) => c.type === 'entries_created')

/** `count` small text files below `/d`, 10 a directory. */
function smallFiles(count: number, prefix = 'f'): BulkFile[] {
  return Array.from({ length: count }, (_, i) => ({
    path: `/d/${Math.floor(i / 10)}/${prefix}${i}.txt`,
    data: `file ${i} `.repeat(1 + (i % 50)),
  }))
}

describe('Workspace.writeFiles', () => {
  it('writes contents, content types, metadata and parents as one version', async () => {
    const before = db.head()
    const written: WrittenFile[] = []
    const result = await db.writeFiles(
      [
        { path: '/site/index.html', data: '<h1>hi</h1>', contentType: 'text/html' },
        { path: 'site/js/app.js', data: new TextEncoder().encode('go()'), metadata: { v: 2 } },
        { path: '/site/empty', data: '' },
      ],
      { onWritten: (file) => written.push(file) },
    )
    expect(result).toMatchObject({ files: 3, bytes: 15, created: 3, replaced: 0, versions: 1 })
    expect(result.version).toBe(db.head())
    expect(result.version).not.toBe(before)
    expect(text(await db.readFile('/site/index.html'))).toBe('<h1>hi</h1>')
    expect(await db.stat('/site/index.html')).toMatchObject({ contentType: 'text/html', size: 11 })
    expect(await db.stat('/site/js/app.js')).toMatchObject({
      contentType: 'application/octet-stream',
      metadata: { v: 2 },
    })
    expect((await db.stat('/site/empty')).size).toBe(0)
    expect((await db.stat('/site/js')).entryType).toBe('directory')
    expect(written.map((w) => [w.path, w.created, w.version])).toEqual([
      ['/site/index.html', true, result.version],
      ['/site/js/app.js', true, result.version],
      ['/site/empty', true, result.version],
    ])
    expect(written[0]?.hash).toBe((await db.stat('/site/index.html')).hash)
    expect(written[0]).toMatchObject({ createdAt: time, updatedAt: time })
    // One change for the whole batch, naming every path.
    expect(created()).toHaveLength(1)
    expect(created()[0]).toMatchObject({ version: result.version, fork: undefined })
    expect((created()[0] as { entries: { path: string }[] }).entries.map((e) => e.path)).toEqual([
      '/site/index.html',
      '/site/js/app.js',
      '/site/empty',
    ])
    // Still there after a reopen: the batch was durable.
    await db.close()
    db = await open()
    expect(text(await db.readFile('/site/js/app.js'))).toBe('go()')
  })

  it('replaces files, keeping their creation time, and the last of a path given twice wins', async () => {
    await db.writeFile('/a.txt', 'old')
    const createdAt = (await db.stat('/a.txt')).createdAt
    time += 1000
    const written: WrittenFile[] = []
    const result = await db.writeFiles(
      [
        { path: '/a.txt', data: 'new' },
        { path: '/b.txt', data: 'first' },
        { path: '/b.txt', data: 'second' },
      ],
      { onWritten: (file) => written.push(file) },
    )
    expect(result).toMatchObject({ files: 3, created: 1, replaced: 2, versions: 1 })
    expect(written[0]).toMatchObject({ created: false, createdAt, updatedAt: time })
    expect(text(await db.readFile('/a.txt'))).toBe('new')
    expect(await db.stat('/a.txt')).toMatchObject({ createdAt, updatedAt: time })
    expect(text(await db.readFile('/b.txt'))).toBe('second')
  })

  it('takes async iterables, streams and chunks already stored', async () => {
    const big = new Uint8Array(300_000).map((_, i) => (i * 7919) % 251)
    const chunkBytes = new TextEncoder().encode('stored chunk')
    const hasher = await createHasher('sha256')
    const hash = Buffer.from(hasher.hashDomain('chunk', chunkBytes)).toString('hex')
    await db.putChunk(hash, chunkBytes)
    async function* files() {
      yield { path: '/s/stream.bin', data: new Blob([big]).stream() }
      yield {
        path: '/s/parts.txt',
        data: (async function* () {
          yield new TextEncoder().encode('ab')
          yield new TextEncoder().encode('cd')
        })(),
      }
      yield { path: '/s/chunks.txt', chunks: [{ hash, size: chunkBytes.length }] }
    }
    const result = await db.writeFiles(files(), { concurrency: 2 })
    expect(result).toMatchObject({ files: 3, versions: 1 })
    expect(Buffer.from(await db.readFile('/s/stream.bin')).equals(Buffer.from(big))).toBe(true)
    expect(text(await db.readFile('/s/parts.txt'))).toBe('abcd')
    expect(text(await db.readFile('/s/chunks.txt'))).toBe('stored chunk')
    await rejectsWith(
      db.writeFiles([{ path: '/s/missing.txt', chunks: [{ hash: '0'.repeat(64), size: 3 }] }]),
      'INVALID_INPUT',
    )
  })

  it('commits one version per batch of maxBatchFiles or maxBatchBytes', async () => {
    const byFiles = await db.writeFiles(smallFiles(25), { maxBatchFiles: 10 })
    expect(byFiles).toMatchObject({ files: 25, versions: 3 })
    expect(created()).toHaveLength(3)
    expect(created().map((c) => (c as { entries: unknown[] }).entries.length)).toEqual([10, 10, 5])
    // HEAD moved once per batch: /d changed in three versions, not 25.
    expect((await db.history('/d')).filter((h) => h.changeType !== 'unchanged')).toHaveLength(3)
    expect(created()[2]?.version).toBe(db.head())

    changes = []
    const files = Array.from({ length: 6 }, (_, i) => ({
      path: `/big/${i}.bin`,
      // Incompressible: each file holds about 10 kB until its batch commits.
      data: randomBytes(10_000),
    }))
    const byBytes = await db.writeFiles(files, { maxBatchBytes: 20_000, concurrency: 1 })
    expect(byBytes).toMatchObject({ files: 6, versions: 3 })
    for (const [i, file] of files.entries())
      expect(Buffer.from(await db.readFile(`/big/${i}.bin`)).equals(file.data)).toBe(true)
  })

  it('writes to a fork without touching HEAD', async () => {
    await db.forks.create('draft')
    const head = db.head()
    const fork = db.fork('draft')
    const result = await fork.writeFiles(smallFiles(5))
    expect(db.head()).toBe(head)
    expect(fork.head()).toBe(result.version)
    expect(text(await fork.readFile('/d/0/f3.txt'))).toBe('file 3 '.repeat(4))
    await rejectsWith(db.stat('/d/0/f3.txt'), 'NOT_FOUND')
    expect(created()[0]).toMatchObject({ fork: 'draft' })
  })

  it('fails the whole batch naming the path, keeping the batches committed before', async () => {
    await db.writeFile('/taken', 'a file')
    await db.mkdir('/folder')
    const cases: [BulkFile, string, RegExp][] = [
      [{ path: '/ok/../x', data: 'x' }, 'INVALID_PATH', /\/ok\/\.\.\/x/],
      [{ path: '/', data: 'x' }, 'INVALID_PATH', /root/],
      [{ path: '/taken/inside.txt', data: 'x' }, 'NOT_A_DIRECTORY', /\/taken/],
      [{ path: '/folder', data: 'x' }, 'CONFLICT', /\/folder/],
      [{ path: '/meta.txt', data: 'x', metadata: [] as never }, 'INVALID_INPUT', /\/meta\.txt/],
      [{ path: '/bad.txt', data: 'x', contentType: 'a\nb' }, 'INVALID_INPUT', /\/bad\.txt/],
      [
        {
          path: '/broken.txt',
          data: (async function* () {
            yield new Uint8Array(1)
            throw new Error('disk gone')
          })(),
        },
        'INVALID_INPUT',
        /\/broken\.txt.*disk gone/,
      ],
    ]
    for (const [bad, code, message] of cases) {
      const head = db.head()
      changes = []
      const files = [...smallFiles(30, 'x'), bad, { path: '/after.txt', data: 'after' }]
      const err = await rejectsWith(db.writeFiles(files, { maxBatchFiles: 20 }), code as never)
      expect(err.message).toMatch(message)
      // The first batch of 20 committed; nothing of the failing one did.
      expect(created()).toHaveLength(1)
      expect(db.head()).not.toBe(head)
      expect(text(await db.readFile('/d/0/x5.txt'))).toBe('file 5 '.repeat(6))
      await rejectsWith(db.stat('/d/2/x25.txt'), 'NOT_FOUND')
      await rejectsWith(db.stat('/after.txt'), 'NOT_FOUND')
      await db.delete('/d', { recursive: true })
    }
  })

  it('commits nothing after a batch whose commit failed while the next one was being stored', async () => {
    await db.writeFile('/taken', 'a file')
    const head = db.head()
    changes = []
    let readAfterFailure = 0
    // The bad file is in the first batch; its commit runs while the second batch is read.
    const files = (async function* () {
      for (const [i, file] of smallFiles(25).entries()) {
        if (i > 10) readAfterFailure++
        yield i === 5 ? { path: '/taken/inside.txt', data: 'x' } : file
      }
    })()
    const err = await rejectsWith(db.writeFiles(files, { maxBatchFiles: 10 }), 'NOT_A_DIRECTORY')
    expect(err.message).toMatch(/\/taken/)
    expect(created()).toHaveLength(0)
    expect(db.head()).toBe(head)
    await rejectsWith(db.stat('/d/1/f15.txt'), 'NOT_FOUND')
    // Reading went on while the first batch committed, then stopped at its error.
    expect(readAfterFailure).toBeLessThan(14)
  })

  it('maintains query indexes and refuses a bad index configuration', async () => {
    await db.writeFile(
      '/orders/.svcdb/indexes.json',
      JSON.stringify({ indexes: [{ field: '/status', type: 'string' }] }),
    )
    await db.writeFiles(
      ['open', 'closed', 'open'].map((status, i) => ({
        path: `/orders/${i}.json`,
        data: JSON.stringify({ status }),
      })),
    )
    const page = await db.query({
      path: '/orders',
      where: { field: '/status', op: 'eq', value: 'open' },
    })
    expect(page.items.map((item) => item.path)).toEqual(['/orders/0.json', '/orders/2.json'])
    const err = await rejectsWith(
      db.writeFiles([{ path: '/x/.svcdb/indexes.json', data: 'not json' }]),
      'INVALID_INPUT',
    )
    expect(err.message).toContain('/x/.svcdb/indexes.json')
  })

  it('writes nothing for no files and reports the current head', async () => {
    const result = await db.writeFiles([])
    expect(result).toEqual({
      version: db.head(),
      files: 0,
      bytes: 0,
      created: 0,
      replaced: 0,
      versions: 0,
    })
    expect(changes).toEqual([])
    expect(await collect(db.list('/'))).toEqual([])
  })
})

describe('Workspace.writeFiles storage', () => {
  /** Count and bytes of the tree objects stored in a closed database's metadata. */
  async function storedObjects(path: string): Promise<{ count: number; bytes: number }> {
    const level = new ClassicLevel<Uint8Array, Uint8Array>(join(path, 'meta'), {
      keyEncoding: 'view',
      valueEncoding: 'view',
    })
    const objects = level.sublevel<Uint8Array, Uint8Array>('obj', {
      keyEncoding: 'view',
      valueEncoding: 'view',
    })
    let count = 0
    let bytes = 0
    for await (const value of objects.values()) {
      count++
      bytes += value.length
    }
    await level.close()
    return { count, bytes }
  }

  // 2,000 synced commits one after another: slow on a busy disk, hence the generous limit.
  it(
    'leaves far fewer tree objects than one writeFile per file',
    { timeout: 120_000 },
    async () => {
      const files = smallFiles(2000)
      const bulkPath = join(dir, 'bulk')
      const bulk = await open(bulkPath)
      await bulk.writeFiles(files)
      await bulk.close()

      const onePath = join(dir, 'one')
      const one = await open(onePath)
      // One at a time: each write is its own commit and version, as a plain loop does.
      for (const file of files) await one.writeFile(file.path, file.data)
      await one.close()

      const a = await storedObjects(bulkPath)
      const b = await storedObjects(onePath)
      console.log('STORED', JSON.stringify({ a, b }))
      // 2,000 file objects and a few dozen pages, against a trail of pages per commit.
      expect(a.count).toBeLessThan(2000 + 300)
      expect(a.count * 2).toBeLessThan(b.count)
      expect(a.bytes * 5).toBeLessThan(b.bytes)
    },
  )
})
