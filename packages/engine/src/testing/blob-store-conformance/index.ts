import { afterEach, describe } from 'vitest'
import { closeTests } from './close'
import { deleteTests } from './delete'
import type { BlobStoreFixture, BlobStoreFixtureFactory, BlobSuiteContext } from './fixture'
import { listTests } from './list'
import { putGetTests } from './put-get'
import { rangeTests } from './range'

export type { BlobStoreFixture, BlobStoreFixtureFactory } from './fixture'

/**
 * Runs the `BlobStore` conformance suite (vitest) against fixtures made by `makeFixture`:
 * byte-exact put and get (empty, one byte, 1 MiB), missing keys, keys an HTTP client must
 * encode, ranges (start, middle, cut at the end, past the end, invalid), overwrites with the
 * same bytes, deletes (missing keys, over 1,000 in one call), listing (bytewise UTF-8 order,
 * prefixes, over 1,000 keys, size and time, the empty prefix) and closing. About 2,100 small
 * objects in all, so it runs against a real S3 server in seconds.
 *
 * @example
 * runBlobStoreConformance('memory', async () => {
 *   const store = createMemoryBlobStore()
 *   return { store, close: () => store.close() }
 * })
 */
export function runBlobStoreConformance(name: string, makeFixture: BlobStoreFixtureFactory): void {
  describe(`BlobStore conformance: ${name}`, () => {
    let current: BlobStoreFixture | undefined

    afterEach(async () => {
      await current?.close()
      current = undefined
    })

    const ctx: BlobSuiteContext = {
      async open() {
        current = await makeFixture()
        return current
      },
    }

    putGetTests(ctx)
    rangeTests(ctx)
    deleteTests(ctx)
    listTests(ctx)
    closeTests(ctx)
  })
}
