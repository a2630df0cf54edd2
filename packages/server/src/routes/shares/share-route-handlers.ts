import type { Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { EventBus } from '@svcdb/events'
import { sendView } from '../../dto/send-view'
import {
  createdShareLinkView,
  revokedShareLinkView,
  shareLinkView,
  shareView,
} from '../../dto/share-views'
import type { RouteHandler } from '../../routing/route-handler'
import { handleRoute } from '../../routing/route-handler'
import type { ShareNotifier } from './share-notifier'

/** What the share routes use. */
export interface ShareRoutesContext {
  auth: Auth
  bus: EventBus
  notifier: ShareNotifier
}

/**
 * Shares and share links (DESIGN §7.1; root only, per the route table). Every change emits
 * `permissions_changed` for each path once it is stored (DESIGN §5).
 */
export function shareRouteHandlers(ctx: ShareRoutesContext): RouteHandler[] {
  const { auth, bus, notifier } = ctx
  const changed = (paths: Iterable<string>) => {
    if (bus.closed) return
    for (const path of new Set(paths)) bus.publish('permissions_changed', { path })
  }
  return [
    handleRoute(routes.sharesCreate, async (c, { body }) => {
      const shares = await auth.shares.grant({
        paths: body.paths,
        userIds: body.users ?? [],
        groupNames: body.groups ?? [],
        permissions: body.permissions,
      })
      changed(shares.map((share) => share.path))
      const notified = await notifier.notify(shares)
      return sendView(c, routes.sharesCreate, { items: shares.map(shareView), notified }, 200)
    }),
    handleRoute(routes.sharesList, async (c, { query }) => {
      const shares = await auth.shares.list(query.path)
      return sendView(c, routes.sharesList, { items: shares.map(shareView) }, 200)
    }),
    handleRoute(routes.sharesDelete, async (c, { body }) => {
      const removed = await auth.shares.revoke({
        path: body.path,
        ...(body.user === undefined ? {} : { userId: body.user }),
        ...(body.group === undefined ? {} : { groupName: body.group }),
      })
      if (removed > 0) changed([body.path])
      return sendView(c, routes.sharesDelete, { removed }, 200)
    }),
    handleRoute(routes.shareLinksCreate, async (c, { body }) => {
      const link = await auth.shares.createLink({
        paths: body.paths,
        permissions: body.permissions,
        ...(body.expires_in_days === undefined ? {} : { expiresInDays: body.expires_in_days }),
      })
      changed(link.paths)
      return sendView(c, routes.shareLinksCreate, createdShareLinkView(link), 201)
    }),
    handleRoute(routes.shareLinksList, async (c, { query }) => {
      const links = await auth.shares.listLinks(query.path)
      return sendView(c, routes.shareLinksList, { items: links.map(shareLinkView) }, 200)
    }),
    handleRoute(routes.shareLinksDelete, async (c, { params }) => {
      const paths = (await auth.shares.listLinks()).find(
        (l) => l.keyId === params.key_id.toLowerCase(),
      )?.paths
      const revoked = await auth.shares.revokeLink(params.key_id)
      changed(paths ?? [])
      return sendView(c, routes.shareLinksDelete, revokedShareLinkView(revoked), 200)
    }),
  ]
}
