import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Database, MAX_PATH_BYTES } from '../src/index'
import { collect, text } from './engine-test-kit'

/** 2,040 directories deep: legal under the 4,096-byte path limit. */
const DEEP = '/a'.repeat(2040)
const DEEP_FILE = `${DEEP}/x.json`

/** Concatenates an archive stream. */
async function bytesOf(archive: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  return Buffer.concat(await collect(archive))
}

describe('a path thousands of levels deep (issue 23, item 10)', () => {
  let dir: string
  const open: Database[] = []
  const openDb = async (name: string) => {
    const db = await Database.open({ path: join(dir, name) })
    open.push(db)
    return db
  }
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-deep-'))
  })
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('is exported, diffed, listed, indexed, collected, verified and imported to the same hash', async () => {
    expect(Buffer.byteLength(DEEP_FILE)).toBeLessThanOrEqual(MAX_PATH_BYTES)
    const db = await openDb('source')
    await db.writeFile('/side.txt', 'beside the root')
    await db.writeFile('/a/beside.txt', 'beside the deep path')
    await db.writeFile(
      '/.svcdb/indexes.json',
      JSON.stringify({ glob: '**/*.json', indexes: [{ field: '/n', type: 'number' }] }),
    )
    const before = (await db.snapshots.create('before')).version
    await db.writeFile(DEEP_FILE, JSON.stringify({ n: 1 }))
    await db.writeFile(`${DEEP}/beside.txt`, 'at the bottom')
    const head = db.head()

    // Full export, imported into a fresh database: the same version, byte for byte.
    const exported = await bytesOf(db.exportArchive())
    const restored = await openDb('restored')
    const imported = await restored.importArchive(exported, { promote: true })
    expect(imported.versionHash).toBe(head)
    expect(restored.head()).toBe(head)
    expect(text(await restored.readFile(DEEP_FILE))).toBe('{"n":1}')

    // A patch from before the deep path, applied on top of the old version elsewhere.
    const patched = await openDb('patched')
    await patched.importArchive(await bytesOf(db.exportArchive({ version: before })), {
      promote: true,
    })
    const patch = await bytesOf(db.diffArchive({ from: before }))
    expect((await patched.importArchive(patch, { promote: true })).versionHash).toBe(head)
    expect(text(await patched.readFile(`${DEEP}/beside.txt`))).toBe('at the bottom')

    // Entry differences reach the bottom when both sides hold the deep directories.
    await db.snapshots.create('deep')
    await db.writeFile(DEEP_FILE, JSON.stringify({ n: 2 }))
    expect(await collect(db.diffEntries({ from: 'deep' }))).toEqual([
      { change: 'modified', path: DEEP_FILE, entryType: 'file' },
    ])

    // Recursive listing, plain and with a glob.
    const listed = (await collect(db.list('/', { depth: -1 }))).map((e) => e.path)
    expect(listed).toEqual(
      expect.arrayContaining([DEEP_FILE, `${DEEP}/beside.txt`, '/a/beside.txt', '/side.txt']),
    )
    const globbed = await collect(db.list('/a', { depth: -1, glob: '**/x.json' }))
    expect(globbed.map((e) => e.path)).toEqual([DEEP_FILE])
    const after = await collect(db.list('/', { depth: -1, after: DEEP_FILE.slice(1) }))
    expect(after.map((e) => e.path)).not.toContain(DEEP_FILE)

    // Index build over a nested scope, and a query that finds the deep document.
    expect((await db.reindex('/')).built).toBe(true)
    const found = await db.query({ path: '/', where: { field: '/n', op: 'eq', value: 2 } })
    expect(found.plan).toBe('index')
    expect(found.items.map((i) => i.path)).toEqual([DEEP_FILE])
    await db.writeFile(DEEP_FILE, JSON.stringify({ n: 3 }))
    const kept = await db.query({ path: '/', where: { field: '/n', op: 'eq', value: 3 } })
    expect(kept.items.map((i) => i.path)).toEqual([DEEP_FILE])

    // GC marks through the deep tree (nothing reachable is lost), then verify walks it.
    await db.gc()
    const verified = await db.verify()
    expect(verified).toMatchObject({ ok: true, missing: [], corrupt: [] })
    expect(text(await db.readFile(DEEP_FILE))).toBe('{"n":3}')
    expect(text(await db.at({ snapshot: 'before' }).readFile('/side.txt'))).toBe('beside the root')
    expect((await restored.verify()).ok).toBe(true)
  }, 120_000)
})
