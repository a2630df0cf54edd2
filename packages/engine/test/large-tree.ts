import { join } from 'node:path'
import type { AbstractLevel } from 'abstract-level'
import { ClassicLevel } from 'classic-level'
import { Database } from '../src/database'
import { createHasher } from '../src/hashing/create-hasher'
import { createLevelMetaStore } from '../src/meta/level-meta-store'
import { ObjectStore, WriteSet } from '../src/objects/object-store'
import type { DirEntry, FileObject } from '../src/objects/tree-objects'
import { pageTotals } from '../src/objects/tree-objects'
import { loadPage, lookupEntry } from '../src/tree/prolly/prolly-read'
import { buildDirectory } from '../src/tree/prolly/prolly-write'
import { directoryEntry } from '../src/tree/tree-edit'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyLevel = AbstractLevel<any, any, any>

/** Where to build: a caller's level (memory-level), or a database directory on disk. */
export type TreeTarget = { level: AnyLevel } | { path: string }

/**
 * Makes HEAD `dirs` directories of `files` distinct small files each (`/dir-000/file-0000`),
 * with the engine's own tree builder: writing 100,000 files one by one would take a minute.
 * Every file object is the seed file `/seed` with its own metadata, so all share one chunk.
 */
export async function buildLargeTree(
  target: TreeTarget,
  dirs: number,
  files: number,
): Promise<void> {
  const seeded = await Database.open(target)
  await seeded.writeFile('/seed', 'seed content')
  await seeded.close()
  const level: AnyLevel =
    'level' in target
      ? target.level
      : new ClassicLevel(join(target.path, 'meta'), { keyEncoding: 'view', valueEncoding: 'view' })
  if (level.status !== 'open') await level.open()
  const meta = createLevelMetaStore(level)
  const store = new ObjectStore(meta, await createHasher('sha256'), 256 << 20)
  const head = (await meta.get('ref', 'HEAD')) as Uint8Array
  const seedEntry = (await lookupEntry(store, await loadPage(store, head), 'seed')) as DirEntry
  const seed = (await store.get(seedEntry.hash)) as FileObject
  const dirEntries: DirEntry[] = []
  for (let d = 0; d < dirs; d++) {
    // One write set per directory keeps memory bounded for a million files.
    const objects = new WriteSet(store)
    const entries: DirEntry[] = []
    for (let f = 0; f < files; f++) {
      const hash = objects.put({ ...seed, metadata: JSON.stringify({ d, f }) })
      entries.push({ ...seedEntry, name: `file-${String(f).padStart(4, '0')}`, hash })
    }
    const hash = buildDirectory(objects, entries)
    const totals = pageTotals(await loadPage(objects, hash))
    dirEntries.push(directoryEntry(`dir-${String(d).padStart(3, '0')}`, { hash, totals }, 1, 1))
    await meta.batch(objects.ops(), { sync: false })
  }
  const objects = new WriteSet(store)
  const root = buildDirectory(
    objects,
    [seedEntry, ...dirEntries].sort((a, b) => (a.name < b.name ? -1 : 1)),
  )
  await meta.batch([...objects.ops(), { type: 'put', space: 'ref', key: 'HEAD', value: root }], {
    sync: true,
  })
  await meta.close()
}
