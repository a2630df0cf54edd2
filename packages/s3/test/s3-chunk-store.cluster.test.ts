import { createBlobChunkStore } from '@svcdb/engine'
import type { BlobChunkStoreOptions, BlobStore } from '@svcdb/engine'
import { runChunkStoreConformance } from '@svcdb/engine/testing'
import type { ChunkStoreFixture } from '@svcdb/engine/testing'
import { createS3BlobStore } from '../src/index'
import { createTestBucket } from './cluster-s3'
import type { TestBucket } from './cluster-s3'
import { createMemoryLevel, openMetaStore } from './memory-level-meta'

type Tuning = Omit<BlobChunkStoreOptions, 'meta' | 'blobs'>

/** The object key of a chunk, as the blob chunk store writes it. */
const chunkKey = (hash: Uint8Array): string => {
  const hex = Buffer.from(hash).toString('hex')
  return `chunks/${hex.slice(0, 2)}/${hex}`
}

/**
 * A blob chunk store over memory-level and a bucket of its own. `reopen` closes both stores
 * and opens new ones on the same level database and bucket; `close` also deletes the bucket.
 */
async function fixture(
  tuning: Tuning,
  bucket: TestBucket,
  level = createMemoryLevel(),
): Promise<ChunkStoreFixture> {
  const meta = await openMetaStore(level)
  const blobs: BlobStore = createS3BlobStore(bucket.options)
  const store = createBlobChunkStore({ meta, blobs, ...tuning })
  let closed = false
  const closeStores = async (): Promise<void> => {
    if (closed) return
    closed = true
    await store.close()
    await meta.close()
    await blobs.close()
  }
  return {
    store,
    meta,
    async corrupt(hash) {
      const key = chunkKey(hash)
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
      return fixture(tuning, bucket, level)
    },
    async close() {
      await closeStores()
      await bucket.remove()
    },
  }
}

// Every removed chunk is past the grace period at once, so compaction really deletes objects.
// (The grace period itself is tested in the engine, on the memory blob store: one run here
// keeps CI short.)
runChunkStoreConformance('blob on s3, no grace period', async () =>
  fixture({ orphanGraceMs: 0, clock: { now: () => Date.now() + 1000 } }, await createTestBucket()),
)
