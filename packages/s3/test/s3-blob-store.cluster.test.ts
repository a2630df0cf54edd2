import { runBlobStoreConformance } from '@svcdb/engine/testing'
import { createS3BlobStore } from '../src/index'
import { createTestBucket } from './cluster-s3'

// Each fixture gets a bucket of its own, emptied and deleted when the test ends. The store works
// inside a prefix folder, beside objects outside it (one whose key merely starts with the
// folder's name): the suite's empty-store checks fail if any of them leaks through. (One run
// only, to keep CI short: without a prefix the wire is the same, which the unit tests against
// a loopback server check.)
runBlobStoreConformance('s3 with a prefix', async () => {
  const bucket = await createTestBucket()
  const whole = createS3BlobStore(bucket.options)
  await whole.put('tenant/a-decoy', Uint8Array.of(1))
  await whole.put('tenant/b/x', Uint8Array.of(1))
  await whole.close()
  const store = createS3BlobStore({ ...bucket.options, prefix: 'tenant/a' })
  return {
    store,
    async close() {
      await store.close()
      await bucket.remove()
    },
  }
})
