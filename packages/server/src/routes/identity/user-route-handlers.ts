import { routes } from '@svcdb/contract'
import { withAuthErrors } from '../../auth/auth-error-translation'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import type { IdentityRoutesContext } from './auth-route-handlers'
import { createUserInput, updateUserInput } from './identity-inputs'
import { userView } from './identity-views'

/** `/system/users/*` (all root; the route table enforces it). */
export function userRouteHandlers(ctx: IdentityRoutesContext): RouteHandler[] {
  const { users } = ctx.auth
  const handlers: RouteHandler[] = [
    handleRoute(routes.usersCreate, async (c, { body }) => {
      return c.json(userView(await users.create(createUserInput(body))), 201)
    }),
    handleRoute(routes.usersList, async (c) => {
      return c.json({ items: (await users.list()).map(userView) }, 200)
    }),
    handleRoute(routes.usersGet, async (c, { params }) => {
      return c.json(userView(await users.get(params.user_id)), 200)
    }),
    handleRoute(routes.usersUpdate, async (c, { params, body }) => {
      return c.json(userView(await users.update(params.user_id, updateUserInput(body))), 200)
    }),
    // A soft delete: the user's keys and tokens stop working at once.
    handleRoute(routes.usersDeactivate, async (c, { params }) => {
      const { deactivated, userId } = await users.deactivate(params.user_id)
      return c.json({ deactivated, user_id: userId }, 200)
    }),
  ]
  return handlers.map(withAuthErrors)
}
