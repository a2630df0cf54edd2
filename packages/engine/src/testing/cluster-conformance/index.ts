import { afterEach, describe } from 'vitest'
import { clockTests } from './clock'
import { closeTests } from './close'
import type {
  ClusterFixture,
  ClusterFixtureFactory,
  ClusterFixtureOptions,
  ClusterSuiteContext,
  ClusterSupports,
} from './fixture'
import { nodesTests } from './nodes'

export type {
  ClusterFixture,
  ClusterFixtureFactory,
  ClusterFixtureOptions,
  ClusterSupports,
} from './fixture'

// Long enough that no test's node goes stale unless the test means it to.
const DEFAULT_WINDOW_MS = 600_000

/**
 * Runs the `Cluster` conformance suite (vitest) against fixtures made by `makeFixture`:
 * no node before a heartbeat, a heartbeat's url and version (kept when left out), lastSeen
 * moving on, staleness after the window (waited out, 50–100 ms) and back to alive, argument
 * checks, a shared clock close to `Date.now()` on one machine that never goes backwards, an
 * offset near zero, and closing; with `multiNode`, two nodes that list each other in id order
 * and see the other go stale.
 *
 * @example
 * runClusterConformance('local', async ({ staleAfterMs }) => {
 *   const a = createLocalCluster('local', { staleAfterMs })
 *   return { a, close: () => a.close() }
 * }, { multiNode: false })
 */
export function runClusterConformance(
  name: string,
  makeFixture: ClusterFixtureFactory,
  supports: ClusterSupports,
): void {
  describe(`Cluster conformance: ${name}`, () => {
    let current: ClusterFixture | undefined

    afterEach(async () => {
      await current?.close()
      current = undefined
    })

    const ctx: ClusterSuiteContext = {
      supports,
      async open(options = {}) {
        const fixtureOptions: ClusterFixtureOptions = {
          staleAfterMs: options.staleAfterMs ?? DEFAULT_WINDOW_MS,
        }
        current = await makeFixture(fixtureOptions)
        return current
      },
    }

    nodesTests(ctx)
    clockTests(ctx)
    closeTests(ctx)
  })
}
