import { rootPage } from '../objects/root-page'
import { EngineError, isEngineError } from '../errors'
import { toHex } from '../internal/hex'
import type { GcFence } from '../commit/gc-fence'
import type { ObjectStore } from '../objects/object-store'

/** What pinning a stored version needs. */
export interface PinnedVersionServices {
  readonly fence: GcFence
  readonly objects: ObjectStore
}

/**
 * Runs `use` while the version `root` is pinned against GC, after checking it is a stored
 * directory: `NOT_FOUND` if it is not stored (or is not a version's root).
 */
export async function withStoredVersion<T>(
  core: PinnedVersionServices,
  root: Uint8Array,
  use: () => Promise<T>,
): Promise<T> {
  const lease = core.fence.lease()
  try {
    const sweeping = lease.add(root)
    if (sweeping !== undefined) await sweeping
    try {
      await rootPage(core.objects, root)
    } catch (err) {
      if (isEngineError(err, 'NOT_FOUND') || isEngineError(err, 'CONTENT_CORRUPT')) {
        throw new EngineError('NOT_FOUND', `version ${toHex(root)} is not stored`, { cause: err })
      }
      throw err
    }
    return await use()
  } finally {
    lease.release()
  }
}
