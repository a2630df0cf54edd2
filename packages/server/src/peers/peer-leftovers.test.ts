import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTempDatabase } from '../../test/kit'
import type { TempDatabase } from '../../test/kit'
import type { PeerConfig } from '../config/peer-flags'
import type { Logger } from '../logger'
import { reportLeftoverPeers } from './peer-leftovers'
import { createPeerStatusBook } from './peer-status-book'
import { startPeers } from './start-peers'

let here: TempDatabase
beforeEach(async () => {
  here = await openTempDatabase('svcdb-leftovers-')
})
afterEach(async () => {
  await here?.destroy()
})

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = []
  const quiet = () => undefined
  return {
    warnings,
    debug: quiet,
    info: quiet,
    warn: (message: string) => warnings.push(message),
    error: quiet,
  } as unknown as Logger & { warnings: string[] }
}

const kept: PeerConfig = { name: 'kept', url: 'http://kept.test' }

/** Pins and status records of `kept` and of `gone` (configured before, not any more). */
async function leftBehind(): Promise<string> {
  await here.db.writeFile('/a.txt', 'a')
  const version = here.db.head()
  await here.db.peerPins.set('kept', version)
  await here.db.peerPins.set('gone', version)
  await here.db.peerPins.set('gone.incoming', version)
  const before = createPeerStatusBook({
    db: here.db,
    peers: [kept, { name: 'gone', url: 'http://gone.test' }],
    intervalMs: 1000,
    now: Date.now,
  })
  await before.save('kept', { forksCreated: 1 })
  await before.save('gone', { forksCreated: 1 })
  return version
}

describe('reportLeftoverPeers', () => {
  it('warns once per pin of a peer no longer configured, keeps the pins, drops its status', async () => {
    const version = await leftBehind()
    const logger = recordingLogger()
    const book = createPeerStatusBook({
      db: here.db,
      peers: [kept],
      intervalMs: 1000,
      now: Date.now,
    })
    await reportLeftoverPeers({ db: here.db, peers: [kept], book, logger })
    expect(logger.warnings).toHaveLength(2)
    expect(logger.warnings[0]).toContain('peer/gone ')
    expect(logger.warnings[1]).toContain('peer/gone.incoming')
    for (const warning of logger.warnings) expect(warning).toContain('svcdb peers forget gone')
    expect((await here.db.peerPins.list()).map((p) => p.name).sort()).toEqual([
      'gone',
      'gone.incoming',
      'kept',
    ])
    expect(await here.db.peerPins.get('gone')).toBe(version)
    const store = here.db.systemStore('peers')
    expect(await store.get('status/gone')).toBeUndefined()
    expect(await store.get('status/kept')).toBeDefined()
  })

  it('runs when replication starts, even with no peer configured any more', async () => {
    await leftBehind()
    const logger = recordingLogger()
    const peers = startPeers({
      db: here.db,
      peers: [],
      intervalMs: 60_000,
      leases: undefined as never,
      logger,
    })
    await peers.stop()
    expect(logger.warnings.filter((w) => w.includes('peer/gone'))).toHaveLength(2)
    expect(logger.warnings.some((w) => w.includes('peer/kept'))).toBe(true)
  })
})
