import { afterEach, describe } from 'vitest'
import { batchTests } from './batch'
import { closeTests } from './close'
import type { MetaStoreFixture, MetaStoreFixtureFactory, MetaStoreSupports } from './fixture'
import { getTests } from './get'
import { getManyTests } from './get-many'
import { guardsTests } from './guards'
import { iterateTests } from './iterate'
import { iterateWhileWritingTests } from './iterate-while-writing'
import { keysTests } from './keys'
import { spacesTests } from './spaces'
import { watchTests } from './watch'

export type { MetaStoreFixture, MetaStoreFixtureFactory, MetaStoreSupports } from './fixture'

/**
 * Runs the `MetaStore` conformance suite (vitest) against fixtures made by
 * `makeFixture`: point reads, atomic batches, guarded batches (compare-and-set), bytewise ordering, every range bound with limit
 * and reverse, isolated key spaces, iteration during writes, closing, and (when supported) `watch`. `supports` declares
 * the optional features the implementation offers; the suite tests those too.
 *
 * @example
 * runMetaStoreConformance('memory-level', async () => memoryFixture(), { snapshots: true })
 */
export function runMetaStoreConformance(
  name: string,
  makeFixture: MetaStoreFixtureFactory,
  supports: MetaStoreSupports,
): void {
  describe(`MetaStore conformance: ${name}`, () => {
    let current: MetaStoreFixture | undefined

    afterEach(async () => {
      await current?.close()
      current = undefined
    })

    const ctx = {
      supports,
      async open() {
        current = await makeFixture()
        return current
      },
      async reopen(fixture: MetaStoreFixture) {
        current = undefined
        current = await fixture.reopen()
        return current
      },
    }

    getTests(ctx)
    getManyTests(ctx)
    batchTests(ctx)
    guardsTests(ctx)
    iterateTests(ctx)
    keysTests(ctx)
    spacesTests(ctx)
    iterateWhileWritingTests(ctx)
    closeTests(ctx)
    watchTests(ctx)
  })
}
