import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { collect } from '../../test/engine-test-kit'
import { Database } from '../database'
import type { EngineCore } from '../engine-core'
import { createHasher } from '../hashing/create-hasher'
import { createLevelMetaStore } from '../meta/level-meta-store'
import { ObjectStore, WriteSet } from '../objects/object-store'
import type { DirEntry, FileObject } from '../objects/tree-objects'
import { pageTotals } from '../objects/tree-objects'
import { buildDirectory } from '../tree/prolly/prolly-write'
import { loadPage, lookupEntry } from '../tree/prolly/prolly-read'
import { directoryEntry } from '../tree/tree-edit'
import { concat } from './archive-samples'

const DIRS = 100
const FILES_PER_DIR = 1000

/**
 * Builds HEAD = DIRS directories of FILES_PER_DIR distinct small files with the engine's own
 * tree builder (writing 100,000 files one by one would take a minute): each file object is
 * the seed file with its own metadata.
 */
async function buildLargeTree(level: MemoryLevel<Uint8Array, Uint8Array>): Promise<void> {
  const seedDb = await Database.open({ level })
  await seedDb.writeFile('/seed', 'seed content')
  await seedDb.close()
  await level.open()
  const meta = createLevelMetaStore(level)
  const objects = new WriteSet(new ObjectStore(meta, await createHasher('sha256'), 256 << 20))
  const head = (await meta.get('ref', 'HEAD')) as Uint8Array
  const seedEntry = (await lookupEntry(objects, await loadPage(objects, head), 'seed')) as DirEntry
  const seed = (await objects.get(seedEntry.hash)) as FileObject
  const dirs: DirEntry[] = []
  for (let d = 0; d < DIRS; d++) {
    const files: DirEntry[] = []
    for (let f = 0; f < FILES_PER_DIR; f++) {
      const hash = objects.put({ ...seed, metadata: JSON.stringify({ d, f }) })
      files.push({ ...seedEntry, name: `file-${String(f).padStart(4, '0')}`, hash })
    }
    const hash = buildDirectory(objects, files)
    const name = `dir-${String(d).padStart(3, '0')}`
    dirs.push(
      directoryEntry(name, { hash, totals: pageTotals(await loadPage(objects, hash)) }, 1, 1),
    )
  }
  const root = buildDirectory(objects, dirs)
  await meta.batch([...objects.ops(), { type: 'put', space: 'ref', key: 'HEAD', value: root }], {
    sync: true,
  })
  await meta.close()
}

describe('diff cost', () => {
  it('reads objects in proportion to the change, not to the 100,000-file tree', async () => {
    const level = new MemoryLevel<Uint8Array, Uint8Array>({
      keyEncoding: 'view',
      valueEncoding: 'view',
    })
    await buildLargeTree(level)
    // No object cache: every read below is a real read of the store.
    const db = await Database.open({ level, cacheBytes: 0 })
    expect(db.stats().counts.files).toBe(DIRS * FILES_PER_DIR)
    await db.snapshots.create('before')
    const changed: string[] = []
    for (let i = 0; i < 10; i++) {
      const path = `/dir-${String(i * 9).padStart(3, '0')}/file-${String(i * 97).padStart(4, '0')}`
      await db.writeFile(path, `changed ${i}`)
      changed.push(path)
    }
    const objects = (db as unknown as { core: EngineCore }).core.objects
    const loadsBefore = objects.counters.loads
    const patch = concat(await collect(db.diffArchive({ from: 'before' })))
    const loads = objects.counters.loads - loadsBefore

    // Per change: the root pages, the directory's root and one leaf page on each side, and
    // the new and old file objects; with depth ≤ 3 that is well under 12 reads per change.
    expect(loads).toBeLessThanOrEqual(10 * 12)
    expect(loads).toBeGreaterThanOrEqual(10 * 2)
    // The patch holds the 10 new files, their chunks and the rewritten pages on their paths
    // (a leaf page of about 64 entries, the directory's root page, the root): not the tree.
    expect(patch.length).toBeLessThan(160 * 1024)

    // And it is right: applied to a copy of the old version, it yields HEAD.
    const copy = await Database.open({ level: new MemoryLevel() })
    await copy.importArchive(concat(await collect(db.exportArchive({ snapshot: 'before' }))), {
      promote: true,
    })
    const result = await copy.importArchive(patch, { promote: true })
    expect(result.versionHash).toBe(db.head())
    expect(result.filesImported).toBe(10)
    expect(new TextDecoder().decode(await copy.readFile(changed[3] as string))).toBe('changed 3')
    await copy.close()
    await db.close()
  }, 120_000)
})
