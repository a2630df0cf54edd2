import { defineRoute } from './route'
import { healthResponseSchema } from './health'

/**
 * The route table of the API. Every route the server mounts is declared here with its auth
 * level and schemas; the client is typed from the same entries.
 */
export const routes = {
  systemHealth: defineRoute({
    id: 'system.health',
    method: 'GET',
    path: '/system/health',
    auth: 'none',
    response: healthResponseSchema,
  }),
} as const

/** Names of the entries of {@link routes}. */
export type RouteName = keyof typeof routes
