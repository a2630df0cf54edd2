import { EngineError } from '../errors'
import type { ObjectStore } from './object-store'
import type { DirPage } from './tree-objects'

/** The root page of a version; `CONTENT_CORRUPT` if the object is not a directory. */
export async function rootPage(objects: ObjectStore, hash: Uint8Array): Promise<DirPage> {
  const page = await objects.get(hash)
  if (page.type !== 'leaf' && page.type !== 'node')
    throw new EngineError('CONTENT_CORRUPT', 'the root of a version is not a directory')
  return page
}
