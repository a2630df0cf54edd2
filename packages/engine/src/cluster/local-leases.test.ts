import { describe, expect, it } from 'vitest'
import { runLeasesConformance } from '../testing/leases-conformance'
import { createLocalLeases, createLocalLeaseTable, localLeases } from './local-leases'

const systemClock = { now: () => Date.now() }

// Two nodes over one table: what two processes sharing a database look like, in one process.
runLeasesConformance('local', async () => {
  const table = createLocalLeaseTable()
  const a = localLeases(table, systemClock)
  const b = localLeases(table, systemClock)
  return {
    a,
    b,
    // In one process, the holder going away is its leases closing.
    loseLocks: (node) => node.close(),
    async close() {
      await a.close()
      await b.close()
    },
  }
})

describe('createLocalLeases', () => {
  it('expires claims by the injected clock', async () => {
    let now = 1000
    const leases = createLocalLeases({ clock: { now: () => now } })
    expect(await leases.claim('tick', 1, 100)).toBeDefined()
    now = 1100
    expect(await leases.claim('tick', 1, 100)).toBeUndefined()
    now = 1101
    expect(await leases.claim('tick', 1, 100)).toBeDefined()
  })

  it('forgets finished claims 7 days after their lease ended, pruning at most hourly', async () => {
    const DAY = 24 * 60 * 60_000
    const HOUR = 60 * 60_000
    let now = 0
    const leases = createLocalLeases({ clock: { now: () => now } })
    expect(await (await leases.claim('cron', 1, 100))?.finish()).toBe(true)
    // Lease ended at 100: kept until 7 days after that.
    now = 7 * DAY + 100
    expect(await leases.claim('cron', 1, 100)).toBeUndefined()
    // Past 7 days, but the last prune was less than an hour ago.
    now = 7 * DAY + 101
    expect(await leases.claim('cron', 1, 100)).toBeUndefined()
    now = 7 * DAY + 100 + HOUR
    expect(await leases.claim('cron', 1, 100)).toBeDefined()
  })

  it('keeps the claims of separate objects apart', async () => {
    const first = createLocalLeases()
    const second = createLocalLeases()
    expect(await first.claim('tick', 1, 1000)).toBeDefined()
    expect(await second.claim('tick', 1, 1000)).toBeDefined()
  })
})
