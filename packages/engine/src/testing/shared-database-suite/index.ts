import { afterEach, describe } from 'vitest'
import type {
  SharedDatabaseFixture,
  SharedDatabaseFixtureFactory,
  SharedDatabaseSuiteContext,
} from './fixture'
import { changeTests } from './changes'
import { raceTests } from './races'
import { visibilityTests } from './visibility'
import { writeTests } from './writes'

export type { SharedDatabaseFixture, SharedDatabaseFixtureFactory } from './fixture'

/**
 * Runs the shared-database suite (vitest): two nodes, each a `Database` opened with
 * `shared: true` on one backing store, made by `makeNodes` for each test. It checks that
 * concurrent writes from both nodes all land with exact totals, that If-Match, If-None-Match,
 * snapshot names and `expectHead` let exactly one node win a race, that no counter increment
 * is lost, that each node reads at once what the other acknowledged (files, history, deletes,
 * symlinks, snapshots, forks), that the version log stays one chain, that each committed group
 * raises the commit token once, that GC is refused, and that each node reports (and replays)
 * exactly the changes the writing node reported.
 *
 * @example
 * runSharedDatabaseSuite('level', async () => {
 *   const meta = createLevelMetaStore(level)
 *   const [a, b] = await Promise.all([
 *     Database.open({ meta: viewOf(meta), shared: true }),
 *     Database.open({ meta: viewOf(meta), shared: true }),
 *   ])
 *   return { a, b, meta, close: async () => { await a.close(); await b.close(); await meta.close() } }
 * })
 */
export function runSharedDatabaseSuite(
  name: string,
  makeNodes: SharedDatabaseFixtureFactory,
): void {
  describe(`shared database: ${name}, two nodes`, () => {
    let current: SharedDatabaseFixture | undefined

    afterEach(async () => {
      await current?.close()
      current = undefined
    })

    const ctx: SharedDatabaseSuiteContext = {
      async open() {
        current = await makeNodes()
        return current
      },
    }

    writeTests(ctx)
    raceTests(ctx)
    visibilityTests(ctx)
    changeTests(ctx)
  })
}
