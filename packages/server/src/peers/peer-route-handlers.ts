import { routes } from '@svcdb/contract'
import { sendView } from '../dto/send-view'
import { handleRoute } from '../routing/route-handler'
import type { RouteHandler } from '../routing/route-handler'
import type { PeerStatusBook } from './peer-status-book'

/** `GET /system/peers` (root): every configured peer's replication status. */
export function peerRouteHandlers(ctx: { book: PeerStatusBook }): RouteHandler[] {
  return [
    handleRoute(routes.systemPeers, async (c) =>
      sendView(c, routes.systemPeers, { items: await ctx.book.statuses() }, 200),
    ),
  ]
}
