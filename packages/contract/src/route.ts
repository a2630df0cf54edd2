import type * as v from 'valibot'

/**
 * Who may call a route: `none` needs no credential, `token` needs a Bearer JWT, `root`
 * needs the root user (everyone else is refused with 403).
 */
export type RouteAuth = 'none' | 'token' | 'root'

/** The auth levels a route may declare. */
export const ROUTE_AUTHS = ['none', 'token', 'root'] as const satisfies readonly RouteAuth[]

/** HTTP methods used by the API. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Any valibot schema, sync or async. */
export type AnySchema = v.GenericSchema | v.GenericSchemaAsync

/** Schemas for the parts of a request the server validates before a handler runs. */
export interface RouteRequest {
  readonly params?: AnySchema
  readonly query?: AnySchema
  readonly body?: AnySchema
}

/**
 * One entry of the route table.
 *
 * `path` uses `{name}` for one path segment and `{name*}` for the rest of the path
 * (slashes included), e.g. `/system/tasks/{id}` or `/files/{path*}`.
 */
export interface RouteDef {
  /** Stable identifier, e.g. `system.health`; used in metrics and logs. */
  readonly id: string
  readonly method: HttpMethod
  readonly path: string
  readonly auth: RouteAuth
  readonly request?: RouteRequest
  /** Schema of the JSON success body; absent for streams and binary bodies. */
  readonly response?: AnySchema
  /**
   * Media type of a request body that is bytes rather than JSON, e.g.
   * `application/octet-stream`; the wildcard type when any type is taken (a file's bytes).
   */
  readonly requestMediaType?: string
  /** True when that body may be left out (an export's list of chunks to skip). */
  readonly requestBodyOptional?: boolean
  /** Media type of a success body that is not JSON; the wildcard type for a file's own. */
  readonly responseMediaType?: string
  /** Status of a successful answer; 200 when absent. */
  readonly successStatus?: number
}

/**
 * Declares a route, keeping its literal types for the server and the client.
 *
 * @example
 * const getTask = defineRoute({ id: 'tasks.get', method: 'GET', path: '/system/tasks/{id}', auth: 'root' })
 */
export function defineRoute<const R extends RouteDef>(route: R): R {
  return route
}

/** Returns true when `value` is a declared auth level. */
export function isRouteAuth(value: unknown): value is RouteAuth {
  return typeof value === 'string' && (ROUTE_AUTHS as readonly string[]).includes(value)
}
