import type { ObjectReader } from '../objects/object-store'
import { entryAt } from '../read/entry-at'

/** The tree hash of the directory at `path` below `root`, or `undefined` when none is there. */
export async function directoryAt(
  reader: ObjectReader,
  root: Uint8Array,
  path: string,
): Promise<Uint8Array | undefined> {
  if (path === '/') return root
  const entry = await entryAt(reader, root, path)
  return entry?.kind === 'directory' ? entry.hash : undefined
}
