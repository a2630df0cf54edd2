import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTempDatabase } from '../../test/kit'
import type { TempDatabase } from '../../test/kit'
import type { PeerConfig } from '../config/peer-flags'
import { createPeerStatusBook } from './peer-status-book'

let here: TempDatabase
beforeEach(async () => {
  here = await openTempDatabase('svcdb-status-book-')
})
afterEach(async () => {
  await here?.destroy()
})

const peers: PeerConfig[] = [{ name: 'a', url: 'http://a.test' }]
const bookOn = (now = () => 1_000_000, configured = peers) =>
  createPeerStatusBook({ db: here.db, peers: configured, intervalMs: 1000, now })

describe('createPeerStatusBook', () => {
  it('loads what was saved before a restart: forks, the last error and the lag', async () => {
    const before = bookOn()
    await before.ready()
    await before.save('a', {
      state: 'failing',
      forksCreated: 2,
      lagEntries: 7,
      lastError: { code: 'UNREACHABLE', message: 'peer a did not answer', at: 5 },
    })
    await here.reopen()
    const after = bookOn()
    await after.ready()
    expect(after.get('a')).toMatchObject({
      state: 'failing',
      forksCreated: 2,
      lagEntries: 7,
      lastError: { code: 'UNREACHABLE', at: 5 },
    })
    // The next attempt adds to what was loaded: a fork made now is the third.
    await after.save('a', { forksCreated: after.get('a').forksCreated + 1 })
    const [status] = await bookOn().statuses()
    expect(status).toMatchObject({ forks_created: 3, lag_entries: 7, state: 'failing' })
    expect((await bookOn().syncSection()).sync_lag_entries).toEqual({ a: 7 })
  })

  it('orders copies by their save count, not by the clocks of the nodes that saved them', async () => {
    // Node X's clock runs an hour ahead; node Y saves after it.
    const x = bookOn(() => 1_000_000 + 3_600_000)
    const y = bookOn(() => 1_000_000)
    await Promise.all([x.ready(), y.ready()])
    await x.save('a', { state: 'failing', forksCreated: 1 })
    x.update('a', { live: true })
    await y.save('a', { state: 'ok', forksCreated: 4 })
    const [seenByX] = await x.statuses()
    expect(seenByX).toMatchObject({ state: 'ok', forks_created: 4 })
  })

  it('takes over the saved copy when this node starts syncing a peer another one synced', async () => {
    const x = bookOn()
    const y = bookOn()
    await Promise.all([x.ready(), y.ready()])
    await x.save('a', { forksCreated: 1 })
    await x.save('a', { forksCreated: 2 })
    await y.refresh('a')
    expect(y.get('a').forksCreated).toBe(2)
    // Even without a refresh, a save starts from the newer saved copy and outranks it.
    const z = bookOn()
    await z.ready()
    await x.save('a', { lagEntries: 9 })
    await z.save('a', { state: 'ok' })
    const [status] = await x.statuses()
    expect(status).toMatchObject({ state: 'ok', lag_entries: 9, forks_created: 2 })
  })

  it('deletes the saved records of peers no longer configured, and only theirs', async () => {
    const both = bookOn(undefined, [...peers, { name: 'gone', url: 'http://gone.test' }])
    await both.ready()
    await both.save('a', { forksCreated: 1 })
    await both.save('gone', { forksCreated: 1 })
    const now = bookOn()
    expect(await now.forgetUnconfigured()).toEqual(['gone'])
    expect(await here.db.systemStore('peers').get('status/gone')).toBeUndefined()
    expect(await here.db.systemStore('peers').get('status/a')).toBeDefined()
  })
})
