import type { MemoryLevel } from 'memory-level'
import { createHasher } from '../src/hashing/create-hasher'
import { createLevelMetaStore } from '../src/meta/level-meta-store'
import { ObjectStore, WriteSet } from '../src/objects/object-store'
import type { DirEntry } from '../src/objects/tree-objects'
import { pageTotals } from '../src/objects/tree-objects'
import { buildDirectory, editDirectory } from '../src/tree/prolly/prolly-write'
import { loadPage, lookupEntry } from '../src/tree/prolly/prolly-read'
import { directoryEntry } from '../src/tree/tree-edit'

/**
 * Puts a directory of `count` entries (each a reference to the file `/seed`) at `dir` below
 * the root of a closed database, with the engine's own prolly-tree builder, and moves HEAD
 * there. Writing a million files one by one would take minutes; the measured writes that
 * follow go through the public API.
 */
export async function bulkDirectory(level: MemoryLevel, dir: string, count: number): Promise<void> {
  await level.open()
  const meta = createLevelMetaStore(level)
  const objects = new WriteSet(new ObjectStore(meta, await createHasher('sha256'), 256 << 20))
  const head = (await meta.get('ref', 'HEAD')) as Uint8Array
  const rootPage = await loadPage(objects, head)
  const seed = (await lookupEntry(objects, rootPage, 'seed')) as DirEntry
  const entries = Array.from({ length: count }, (_, i) => ({ ...seed, name: `entry-${i}` }))
  const hash = buildDirectory(objects, entries)
  const totals = pageTotals(await loadPage(objects, hash))
  const name = dir.slice(1)
  const root = await editDirectory(
    objects,
    rootPage,
    new Map([[name, directoryEntry(name, { hash, totals }, 1, 1)]]),
  )
  await meta.batch([...objects.ops(), { type: 'put', space: 'ref', key: 'HEAD', value: root }], {
    sync: true,
  })
  await meta.close()
}
