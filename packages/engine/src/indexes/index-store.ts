import type { MetaOp, MetaStore } from '../meta/meta-store'

/**
 * Where a directory version's indexes are found: key `dir tree hash ‖ config entry hash`,
 * value the root page hash of each declared index, in the config's order. Derived data,
 * outside the version hash: GC drops the records of directory versions no longer live.
 */
export function indexRecordKey(dirHash: Uint8Array, configHash: Uint8Array): Uint8Array {
  const key = new Uint8Array(dirHash.length + configHash.length)
  key.set(dirHash, 0)
  key.set(configHash, dirHash.length)
  return key
}

/** The directory tree hash of a record key. */
export function dirHashOfRecordKey(key: Uint8Array): Uint8Array {
  return key.subarray(0, key.length / 2)
}

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
