import { routes } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import type { PeerConfig } from '../config/peer-flags'
import { sendView } from '../dto/send-view'
import { handleRoute } from '../routing/route-handler'
import type { RouteHandler } from '../routing/route-handler'
import { forgetPeer } from './forget-peer'
import type { PeerStatusBook } from './peer-status-book'

/**
 * `GET /system/peers` (root): every configured peer's replication status.
 * `DELETE /system/peers/{name}` (root): drops what is kept of a peer no longer configured.
 */
export function peerRouteHandlers(ctx: {
  book: PeerStatusBook
  db: Database
  peers: readonly PeerConfig[]
}): RouteHandler[] {
  return [
    handleRoute(routes.systemPeers, async (c) =>
      sendView(c, routes.systemPeers, { items: await ctx.book.statuses() }, 200),
    ),
    handleRoute(routes.systemPeersForget, async (c, { params }) => {
      const removed = await forgetPeer(ctx.db, ctx.peers, params.name)
      return sendView(c, routes.systemPeersForget, { name: params.name, removed }, 200)
    }),
  ]
}
