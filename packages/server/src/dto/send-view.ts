import type { AnySchema, RouteDef } from '@svcdb/contract'
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type * as v from 'valibot'
import type { AppEnv } from '../routing/app-env'

/** The wire type of a route's JSON success body, as its response schema gives it. */
export type ResponseOf<R extends RouteDef> = R['response'] extends AnySchema
  ? v.InferOutput<R['response']>
  : never

/**
 * Answers `view` as the JSON body of `route`. The view's type is the route's response schema,
 * so a handler cannot answer a field the contract does not have (or miss one it requires).
 *
 * @example
 * return sendView(c, routes.usersGet, userView(user), 200)
 */
export function sendView<R extends RouteDef>(
  c: Context<AppEnv>,
  route: R,
  view: ResponseOf<R>,
  status: ContentfulStatusCode,
): Response {
  void route
  return c.json(view as unknown, status)
}
