import { routes } from '@svcdb/contract'
import { createUserInput, updateUserInput } from '../../dto/identity-inputs'
import { deactivatedUserView, userView } from '../../dto/identity-views'
import { sendView } from '../../dto/send-view'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'
import type { IdentityRoutesContext } from './auth-route-handlers'

/** `/system/users/*` (all root; the route table enforces it). */
export function userRouteHandlers(ctx: IdentityRoutesContext): RouteHandler[] {
  const { users } = ctx.auth
  return [
    handleRoute(routes.usersCreate, async (c, { body }) => {
      const user = await users.create(createUserInput(body))
      return sendView(c, routes.usersCreate, userView(user), 201)
    }),
    handleRoute(routes.usersList, async (c) => {
      return sendView(c, routes.usersList, { items: (await users.list()).map(userView) }, 200)
    }),
    handleRoute(routes.usersGet, async (c, { params }) => {
      return sendView(c, routes.usersGet, userView(await users.get(params.user_id)), 200)
    }),
    handleRoute(routes.usersUpdate, async (c, { params, body }) => {
      const user = await users.update(params.user_id, updateUserInput(body))
      return sendView(c, routes.usersUpdate, userView(user), 200)
    }),
    // A soft delete: the user's keys and tokens stop working at once.
    handleRoute(routes.usersDeactivate, async (c, { params }) => {
      const result = await users.deactivate(params.user_id)
      return sendView(c, routes.usersDeactivate, deactivatedUserView(result), 200)
    }),
  ]
}
