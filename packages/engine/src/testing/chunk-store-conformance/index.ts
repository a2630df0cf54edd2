import { afterEach, describe } from 'vitest'
import type { StageResult } from '../../chunks/chunk-store'
import { createHasher } from '../../hashing/create-hasher'
import type { MetaOp } from '../../meta/meta-store'
import { closeTests } from './close'
import { commitTests } from './commit'
import { compactTests } from './compact'
import { entriesTests } from './entries'
import type { ChunkStoreFixture, ChunkStoreFixtureFactory, ChunkSuiteContext } from './fixture'
import { readTests } from './read'
import { removeTests } from './remove'
import { stageTests } from './stage'

export type { ChunkStoreFixture, ChunkStoreFixtureFactory } from './fixture'
export { createBlobChunkStoreFixture } from './blob-fixture'
export type { BlobChunkStoreFixtureOptions } from './blob-fixture'

/**
 * Runs the `ChunkStore` conformance suite (vitest) against fixtures made by
 * `makeFixture`: round trips, de-duplication, compression, corruption, durability across
 * reopen, listing, removal and compaction. Every implementation runs it in one line.
 *
 * @example
 * runChunkStoreConformance('pack', async () => makePackFixture(await mkdtemp(...)))
 */
export function runChunkStoreConformance(
  name: string,
  makeFixture: ChunkStoreFixtureFactory,
): void {
  describe(`ChunkStore conformance: ${name}`, () => {
    let current: ChunkStoreFixture | undefined
    const hasherReady = createHasher('sha256')

    afterEach(async () => {
      await current?.close()
      current = undefined
    })

    const idOf = async (bytes: Uint8Array): Promise<Uint8Array> =>
      (await hasherReady).hashDomain('chunk', bytes)

    const ctx: ChunkSuiteContext = {
      async open() {
        current = await makeFixture()
        return current
      },
      async reopen(fixture) {
        current = undefined
        current = await fixture.reopen()
        return current
      },
      idOf,
      stageAll: (fixture, chunks) =>
        Promise.all(chunks.map(async (c) => fixture.store.stage(await idOf(c), c))),
      async commit(fixture, results: StageResult[]) {
        const flushOps = await fixture.store.flush()
        const ops: MetaOp[] = [...results.flatMap((r) => r.ops), ...flushOps]
        await fixture.meta.batch(ops, { sync: true })
        fixture.store.committed()
      },
    }

    readTests(ctx)
    stageTests(ctx)
    commitTests(ctx)
    entriesTests(ctx)
    removeTests(ctx)
    compactTests(ctx)
    closeTests(ctx)
  })
}
