import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { collect } from '../../test/engine-test-kit'
import { buildLargeTree } from '../../test/large-tree'
import { Database } from '../database'
import type { ObjectStore } from '../objects/object-store'
import { concat } from '../../test/support/archive-samples'

const DIRS = 100
const FILES_PER_DIR = 1000

describe('diff cost', () => {
  it('reads objects in proportion to the change, not to the 100,000-file tree', async () => {
    const level = new MemoryLevel<Uint8Array, Uint8Array>({
      keyEncoding: 'view',
      valueEncoding: 'view',
    })
    await buildLargeTree({ level }, DIRS, FILES_PER_DIR)
    // No object cache: every read below is a real read of the store.
    const db = await Database.open({ level, cacheBytes: 0 })
    expect(db.stats().counts.files).toBe(DIRS * FILES_PER_DIR + 1)
    await db.snapshots.create('before')
    const changed: string[] = []
    for (let i = 0; i < 10; i++) {
      const path = `/dir-${String(i * 9).padStart(3, '0')}/file-${String(i * 97).padStart(4, '0')}`
      await db.writeFile(path, `changed ${i}`)
      changed.push(path)
    }
    const objects = (db as unknown as { core: { objects: ObjectStore } }).core.objects
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
