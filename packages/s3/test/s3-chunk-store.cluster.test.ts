import type { BlobChunkStoreOptions } from '@svcdb/engine'
import { createBlobChunkStoreFixture, runChunkStoreConformance } from '@svcdb/engine/testing'
import type { ChunkStoreFixture } from '@svcdb/engine/testing'
import { createS3BlobStore } from '../src/index'
import { createTestBucket } from './cluster-s3'
import type { TestBucket } from './cluster-s3'
import { createMemoryLevel, openMetaStore } from './memory-level-meta'

type Tuning = Omit<BlobChunkStoreOptions, 'meta' | 'blobs'>

/**
 * A blob chunk store over memory-level and a bucket of its own. `reopen` opens new stores on
 * the same level database and bucket; `close` also deletes the bucket.
 */
function fixture(tuning: Tuning, bucket: TestBucket): Promise<ChunkStoreFixture> {
  const level = createMemoryLevel()
  return createBlobChunkStoreFixture({
    blobs: createS3BlobStore(bucket.options),
    tuning,
    openMeta: () => openMetaStore(level),
    dispose: () => bucket.remove(),
  })
}

// Every removed chunk is past the grace period at once, so compaction really deletes objects.
// (The grace period itself is tested in the engine, on the memory blob store: one run here
// keeps CI short.)
runChunkStoreConformance('blob on s3, no grace period', async () =>
  fixture({ orphanGraceMs: 0, clock: { now: () => Date.now() + 1000 } }, await createTestBucket()),
)
