import { routes } from '@svcdb/contract'
import { withAuthErrors } from '../../auth/auth-error-translation'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import type { IdentityRoutesContext } from './auth-route-handlers'
import { createGroupInput, updateGroupInput } from './identity-inputs'
import { groupView } from './identity-views'

/** `/system/groups/*` (all root; the route table enforces it). */
export function groupRouteHandlers(ctx: IdentityRoutesContext): RouteHandler[] {
  const { groups } = ctx.auth
  const handlers: RouteHandler[] = [
    handleRoute(routes.groupsCreate, async (c, { body }) => {
      return c.json(groupView(await groups.create(createGroupInput(body))), 201)
    }),
    handleRoute(routes.groupsList, async (c) => {
      return c.json({ items: (await groups.list()).map(groupView) }, 200)
    }),
    handleRoute(routes.groupsGet, async (c, { params }) => {
      return c.json(groupView(await groups.get(params.name)), 200)
    }),
    handleRoute(routes.groupsUpdate, async (c, { params, body }) => {
      return c.json(groupView(await groups.update(params.name, updateGroupInput(body))), 200)
    }),
    handleRoute(routes.groupsDelete, async (c, { params }) => {
      return c.json(await groups.delete(params.name), 200)
    }),
  ]
  return handlers.map(withAuthErrors)
}
