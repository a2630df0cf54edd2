import { blobChunkKey } from '../../chunks/blob-chunk-key'
import { createBlobChunkStore } from '../../chunks/blob-chunk-store'
import type { BlobChunkStoreOptions } from '../../chunks/blob-chunk-store'
import type { BlobStore } from '../../chunks/blob-store'
import type { MetaStore } from '../../meta/meta-store'
import type { ChunkStoreFixture } from './fixture'

/** What {@link createBlobChunkStoreFixture} builds its fixture from. */
export interface BlobChunkStoreFixtureOptions {
  /** Where the chunk objects live: kept across `reopen`, closed by the fixture's `close`. */
  blobs: BlobStore
  /** Opens the metadata store; at each `reopen`, again on the same data. */
  openMeta(): Promise<MetaStore>
  /** Options of the blob chunk store besides its two stores. */
  tuning?: Omit<BlobChunkStoreOptions, 'meta' | 'blobs'>
  /** Frees what the fixture holds once it is closed for good (a test bucket). */
  dispose?(): Promise<void>
}

/**
 * A ChunkStore conformance fixture for `createBlobChunkStore` over any `BlobStore`:
 * `corrupt` flips one byte of the chunk's object, `footprint` sums the objects' sizes.
 *
 * @example
 * runChunkStoreConformance('blob on s3', async () =>
 *   createBlobChunkStoreFixture({ blobs: createS3BlobStore(options), openMeta }),
 * )
 */
export async function createBlobChunkStoreFixture(
  options: BlobChunkStoreFixtureOptions,
): Promise<ChunkStoreFixture> {
  const { blobs, tuning = {} } = options
  const meta = await options.openMeta()
  const store = createBlobChunkStore({ meta, blobs, ...tuning })
  let closed = false
  const closeStores = async (): Promise<void> => {
    if (closed) return
    closed = true
    await store.close()
    await meta.close()
  }
  return {
    store,
    meta,
    async corrupt(hash) {
      const key = blobChunkKey(hash)
      const object = await blobs.get(key)
      if (object === undefined) throw new Error(`corrupt(): no object ${key}`)
      const at = object.length - 1 - (object.length >> 2)
      object[at] = (object[at] as number) ^ 0x10
      await blobs.put(key, object)
    },
    async footprint() {
      let total = 0
      for await (const { size } of blobs.list('chunks/')) total += size
      return total
    },
    async reopen() {
      await closeStores()
      return createBlobChunkStoreFixture(options)
    },
    async close() {
      await closeStores()
      await blobs.close()
      await options.dispose?.()
    },
  }
}
