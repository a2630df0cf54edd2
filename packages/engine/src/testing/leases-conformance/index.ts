import { afterEach, describe } from 'vitest'
import { claimTests } from './claim'
import { closeTests } from './close'
import type { LeasesFixture, LeasesFixtureFactory, LeasesSuiteContext } from './fixture'
import { lockTests } from './lock'

export type { LeasesFixture, LeasesFixtureFactory } from './fixture'

/**
 * Runs the `Leases` conformance suite (vitest) against fixtures made by `makeFixture`, each
 * two nodes over one state: a (job, slot) claimed once under 20 concurrent claimers on both
 * nodes, slots and jobs independent, takeover of an unfinished claim only after it expired
 * (by one of 20 concurrent claimers) and never after `finish()`, `withLock` exclusion across
 * nodes without waiting, release when the job settles or throws, release and an aborted
 * signal when the holder's connection or process goes (the fixture's `loseLocks`), argument
 * checks and closing. Waits out 30 ms leases a few times (about a second in all).
 *
 * @example
 * runLeasesConformance('postgres', async () => {
 *   const a = await createPostgresLeases({ connectionString, schema, nodeId: 'a' })
 *   const b = await createPostgresLeases({ connectionString, schema, nodeId: 'b' })
 *   return { a, b, loseLocks: (node) => terminateLockBackends(node), close: () => dropAll() }
 * })
 */
export function runLeasesConformance(name: string, makeFixture: LeasesFixtureFactory): void {
  describe(`Leases conformance: ${name}`, () => {
    let current: LeasesFixture | undefined

    afterEach(async () => {
      await current?.close()
      current = undefined
    })

    const ctx: LeasesSuiteContext = {
      async open() {
        current = await makeFixture()
        return current
      },
    }

    claimTests(ctx)
    lockTests(ctx)
    closeTests(ctx)
  })
}
