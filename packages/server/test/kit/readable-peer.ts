import { expect } from 'vitest'
import type { PeerConfig } from '../../src/config/peer-flags'
import { createPeerClock } from '../../src/peers/peer-clock'
import { createPeerHttp } from '../../src/peers/peer-http'
import { pullOnce } from '../../src/peers/pull-round'
import type { PullOutcome, PullServices } from '../../src/peers/pull-round'
import { fileRouteHandlers } from '../../src/routes/files/file-route-handlers'
import { versionChangesRoute } from '../../src/routes/versions/version-changes-route'
import { identityRoutes } from './identity-routes'
import { openTempDatabase } from './temp-database'
import type { TempDatabase } from './temp-database'
import { startTestApp } from './test-app'
import type { TestApp } from './test-app'

/** Options of one {@link ReadablePeer.pull}. */
export interface ReadablePullOptions {
  scope?: string
  /** The peer key (the fixture's read-only key by default). */
  key?: string
  /** How requests reach the peer (in process by default). */
  fetch?: typeof fetch
  onBehind?: PullServices['onBehind']
}

/** An in-process peer with the routes a readable pull uses, and a database pulling from it. */
export interface ReadablePeer {
  peer: TestApp
  here: TempDatabase
  /** A root key with rules (so not root): `/public` readable, `/public/locked/*` listable only. */
  readKey: string
  /** Requests answered by the peer's app, in process. */
  viaApp: typeof fetch
  /** One pull of peer `a` into `here`. */
  pull(options?: ReadablePullOptions): Promise<PullOutcome>
  close(): Promise<void>
}

/** Starts the peer and the pulling database (see {@link ReadablePeer}). */
export async function startReadablePeer(): Promise<ReadablePeer> {
  const peer = await startTestApp((deps) => [
    ...fileRouteHandlers(deps),
    versionChangesRoute(deps),
    ...identityRoutes(deps),
  ])
  const here = await openTempDatabase('svcdb-readable-')
  const created = await peer.call('POST', '/auth/keys', {
    token: peer.rootToken,
    body: { rules: [{ '/public/locked/*': '----l---' }, { '/public/**': '-r--l---' }] },
  })
  expect(created.status).toBe(201)
  const readKey = ((await created.json()) as { key: string }).key
  const viaApp: typeof fetch = async (input, init) => peer.app.request(String(input), init)
  return {
    peer,
    here,
    readKey,
    viaApp,
    pull(options = {}) {
      const config: PeerConfig = { name: 'a', url: 'http://peer.test', key: options.key ?? readKey }
      if (options.scope !== undefined) config.scope = options.scope
      const services: PullServices = {
        db: here.db,
        peer: config,
        http: createPeerHttp(config, options.fetch ?? viaApp),
        clock: createPeerClock(),
        now: Date.now,
      }
      if (options.onBehind !== undefined) services.onBehind = options.onBehind
      return pullOnce(services, new AbortController().signal)
    },
    async close() {
      await here.destroy()
      await peer.close()
    },
  }
}
