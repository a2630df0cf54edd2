import { indexRecordKey } from '../meta/keys'
import type { MetaOp, MetaStore } from '../meta/meta-store'

// Where a directory version's indexes are found: key `indexRecordKey(dir tree hash, config
// entry hash)`, value the root page hash of each declared index, in the config's order.
// Derived data, outside the version hash: GC drops the records of directory versions no
// longer live.

/** Reads the index roots of a directory version, if they were built. */
export async function readIndexRoots(
  meta: MetaStore,
  dirHash: Uint8Array,
  configHash: Uint8Array,
): Promise<Uint8Array[] | undefined> {
  const value = await meta.get('idx', indexRecordKey(dirHash, configHash))
  if (value === undefined) return undefined
  const roots: Uint8Array[] = []
  for (let at = 0; at + 32 <= value.length; at += 32) roots.push(value.slice(at, at + 32))
  return roots
}

/** The op that records the index roots of a directory version. */
export function writeIndexRoots(
  dirHash: Uint8Array,
  configHash: Uint8Array,
  roots: readonly Uint8Array[],
): MetaOp {
  const value = new Uint8Array(roots.length * 32)
  roots.forEach((root, i) => value.set(root, i * 32))
  return { type: 'put', space: 'idx', key: indexRecordKey(dirHash, configHash), value }
}
