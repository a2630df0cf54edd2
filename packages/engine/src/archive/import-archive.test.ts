import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collect, openMemoryDatabase, rejectsWith, text } from '../../test/engine-test-kit'
import type { Database } from '../database'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { concat } from '../../test/support/archive-samples'

async function archiveBytes(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  return concat(await collect(stream))
}

/** Version, counts and sizes: what must not move when an import fails. */
function fingerprint(db: Database) {
  const { counts, sizes } = db.stats()
  return { head: db.head(), counts, sizes }
}

async function fill(db: Database): Promise<void> {
  await db.writeFile('/docs/readme.md', '# hello', { contentType: 'text/markdown' })
  await db.writeFile('/docs/big.bin', pseudoRandomBytes(300_000, 1), { metadata: { k: 1 } })
  await db.writeFile('/docs/copy.bin', pseudoRandomBytes(300_000, 1))
  await db.writeFile('/empty.txt', '')
  await db.mkdir('/empty-dir')
  await db.symlink('/link', '/docs/readme.md')
  for (let i = 0; i < 40; i++) await db.writeFile(`/many/f${i}.txt`, `file ${i}`)
}

describe('export and import', () => {
  let a: Database
  let b: Database
  beforeEach(async () => {
    a = (await openMemoryDatabase()).db
    b = (await openMemoryDatabase()).db
  })
  afterEach(async () => {
    await a.close()
    await b.close()
  })

  it('reproduces the exported version hash exactly in an empty database', async () => {
    await fill(a)
    const bytes = await archiveBytes(a.exportArchive())
    const result = await b.importArchive(bytes)
    expect(result).toEqual({
      status: 'imported',
      backupType: 'export',
      entriesImported: 1 + 3 + 40 + 1 + 4, // symlink, docs files, many, empty.txt, dirs (root, docs, many, empty-dir)
      chunksImported: expect.any(Number),
      filesImported: 44,
      directoriesImported: 4,
      deletionsApplied: 0,
      versionHash: a.head(),
      headPromoted: false,
    })
    // Kept for a later promote, not yet HEAD.
    expect(b.head()).not.toBe(a.head())
    expect(text(await b.at(a.head()).readFile('/docs/readme.md'))).toBe('# hello')
    await b.promote(a.head())
    expect(b.head()).toBe(a.head())
    expect(Buffer.from(await b.readFile('/docs/big.bin'))).toEqual(
      Buffer.from(pseudoRandomBytes(300_000, 1)),
    )
    expect(await b.readlink('/link')).toBe('/docs/readme.md')
    expect(b.stats().counts).toMatchObject(a.stats().counts)
    expect(b.stats().sizes.logicalData).toBe(a.stats().sizes.logicalData)
  })

  it('exports a snapshot or a version, and promotes on import when asked', async () => {
    await a.writeFile('/x', 'one')
    await a.snapshots.create('s')
    const v1 = a.head()
    await a.writeFile('/x', 'two')
    const fromSnapshot = await archiveBytes(a.exportArchive({ snapshot: 's' }))
    const fromVersion = await archiveBytes(a.exportArchive({ version: v1 }))
    expect(fromSnapshot).toEqual(fromVersion)
    const result = await b.importArchive(fromSnapshot, { promote: true })
    expect(result).toMatchObject({ headPromoted: true, versionHash: v1 })
    expect(text(await b.readFile('/x'))).toBe('one')
    await rejectsWith(archiveBytes(a.exportArchive({ snapshot: 'nope' })), 'NOT_FOUND')
    await rejectsWith(archiveBytes(a.exportArchive({ version: 'xyz' })), 'INVALID_HASH')
  })

  it('applies a patch on its base, counts deletions, and refuses another base unless forced', async () => {
    await fill(a)
    await a.snapshots.create('v1')
    const base = await archiveBytes(a.exportArchive())
    await b.importArchive(base, { promote: true })

    await a.writeFile('/docs/readme.md', '# changed')
    await a.delete('/many', { recursive: true }) // 40 files + the directory
    await a.delete('/empty.txt')
    await a.writeFile('/new/file.txt', 'new')
    const patch = await archiveBytes(a.diffArchive({ from: 'v1' }))
    expect(patch.length).toBeLessThan(base.length / 10)

    const result = await b.importArchive(patch, { promote: true })
    expect(result).toMatchObject({
      backupType: 'patch',
      deletionsApplied: 42,
      versionHash: a.head(),
      headPromoted: true,
    })
    expect(b.head()).toBe(a.head())
    expect(text(await b.readFile('/docs/readme.md'))).toBe('# changed')

    // b is now at the patch's target, not its base.
    await rejectsWith(b.importArchive(patch), 'BASE_MISMATCH')
    const forced = await b.importArchive(patch, { force: true, promote: true })
    expect(forced.versionHash).toBe(a.head())

    // A patch onto a database lacking the base objects is incomplete, even forced.
    const { db: empty } = await openMemoryDatabase()
    await rejectsWith(empty.importArchive(patch, { force: true }), 'INVALID_ARCHIVE')
    await empty.close()
  })

  it('diffs between two named versions, and to an unchanged version as an empty patch', async () => {
    await a.writeFile('/a', '1')
    await a.snapshots.create('one')
    await a.writeFile('/a', '2')
    await a.snapshots.create('two')
    await a.writeFile('/a', '3')
    const patch = await archiveBytes(a.diffArchive({ from: 'one', to: 'two' }))
    await b.importArchive(await archiveBytes(a.exportArchive({ snapshot: 'one' })), {
      promote: true,
    })
    expect((await b.importArchive(patch, { promote: true })).versionHash).toBe(
      (await a.snapshots.get('two')).version,
    )
    const same = await archiveBytes(a.diffArchive({ from: 'two', to: 'two' }))
    const applied = await b.importArchive(same)
    expect(applied).toMatchObject({ entriesImported: 0, chunksImported: 0, deletionsApplied: 0 })
  })

  it('refuses an archive of another hash algorithm', async () => {
    const { Database } = await import('../database')
    const { MemoryLevel } = await import('memory-level')
    const blake = await Database.open({ level: new MemoryLevel(), hashAlgorithm: 'blake3' })
    await blake.writeFile('/a', 'x')
    const bytes = await archiveBytes(blake.exportArchive())
    await blake.close()
    const before = fingerprint(b)
    const err = await rejectsWith(b.importArchive(bytes), 'INVALID_ARCHIVE')
    expect(err.message).toMatch(/blake3/)
    expect(fingerprint(b)).toEqual(before)
  })

  it('enforces byte and entry limits', async () => {
    await fill(a)
    const bytes = await archiveBytes(a.exportArchive())
    await rejectsWith(b.importArchive(bytes, { maxBytes: bytes.length - 1 }), 'TOO_LARGE')
    await rejectsWith(b.importArchive(bytes, { maxEntries: 10 }), 'TOO_LARGE')
    expect((await b.importArchive(bytes, { maxBytes: bytes.length })).versionHash).toBe(a.head())
  })
})
