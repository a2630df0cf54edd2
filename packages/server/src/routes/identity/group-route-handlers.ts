import { routes } from '@svcdb/contract'
import { createGroupInput, updateGroupInput } from '../../dto/identity-inputs'
import { deletedGroupView, groupView } from '../../dto/identity-views'
import { sendView } from '../../dto/send-view'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import type { IdentityRoutesContext } from './auth-route-handlers'

/** `/system/groups/*` (all root; the route table enforces it). */
export function groupRouteHandlers(ctx: IdentityRoutesContext): RouteHandler[] {
  const { groups } = ctx.auth
  return [
    handleRoute(routes.groupsCreate, async (c, { body }) => {
      const group = await groups.create(createGroupInput(body))
      return sendView(c, routes.groupsCreate, groupView(group), 201)
    }),
    handleRoute(routes.groupsList, async (c) => {
      return sendView(c, routes.groupsList, { items: (await groups.list()).map(groupView) }, 200)
    }),
    handleRoute(routes.groupsGet, async (c, { params }) => {
      return sendView(c, routes.groupsGet, groupView(await groups.get(params.name)), 200)
    }),
    handleRoute(routes.groupsUpdate, async (c, { params, body }) => {
      const group = await groups.update(params.name, updateGroupInput(body))
      return sendView(c, routes.groupsUpdate, groupView(group), 200)
    }),
    handleRoute(routes.groupsDelete, async (c, { params }) => {
      const deleted = await groups.delete(params.name)
      return sendView(c, routes.groupsDelete, deletedGroupView(deleted), 200)
    }),
  ]
}
