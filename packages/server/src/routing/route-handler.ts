import type { AnySchema, RouteDef } from '@svcdb/contract'
import type { Context } from 'hono'
import type * as v from 'valibot'
import type { AppEnv } from './app-env'

type Parsed<S> = S extends AnySchema ? v.InferOutput<S> : undefined

/** The validated parts of a request, typed by the route's schemas. */
export interface RouteInput<R extends RouteDef> {
  params: Parsed<NonNullable<R['request']>['params']>
  query: Parsed<NonNullable<R['request']>['query']>
  body: Parsed<NonNullable<R['request']>['body']>
}

/** A route of the contract together with the code that answers it. */
export interface RouteHandler<R extends RouteDef = RouteDef> {
  route: R
  handle(c: Context<AppEnv>, input: RouteInput<R>): Response | Promise<Response>
}

/**
 * Pairs a contract route with its handler, keeping the input types.
 *
 * @example
 * const health = handleRoute(routes.systemHealth, (c) => c.json({ status: 'ok', version }))
 */
export function handleRoute<const R extends RouteDef>(
  route: R,
  handle: RouteHandler<R>['handle'],
): RouteHandler<R> {
  return { route, handle }
}
