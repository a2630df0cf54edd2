import * as v from 'valibot'
import { healthResponseSchema } from '../health'
import { peerForgetResponseSchema, peersResponseSchema } from '../peers'
import { defineRoute } from '../route'
import { statsResponseSchema } from '../stats'

/** Routes of /system/health, /system/stats, /system/metrics, /system/events and /system/peers. */
export const systemRoutes = {
  systemHealth: defineRoute({
    id: 'system.health',
    method: 'GET',
    path: '/system/health',
    auth: 'none',
    response: healthResponseSchema,
  }),
  systemOpenApi: defineRoute({
    id: 'system.openapi',
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    responseMediaType: 'application/json',
  }),
  systemStats: defineRoute({
    id: 'system.stats',
    method: 'GET',
    path: '/system/stats',
    auth: 'token',
    response: statsResponseSchema,
  }),
  systemMetrics: defineRoute({
    id: 'system.metrics',
    method: 'GET',
    path: '/system/metrics',
    auth: 'token',
    responseMediaType: 'text/plain',
  }),
  systemPeers: defineRoute({
    id: 'system.peers',
    method: 'GET',
    path: '/system/peers',
    auth: 'root',
    response: peersResponseSchema,
  }),
  systemPeersForget: defineRoute({
    id: 'system.peers.forget',
    method: 'DELETE',
    path: '/system/peers/{name}',
    auth: 'root',
    request: {
      params: v.object({
        name: v.pipe(
          v.string(),
          v.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, 'a peer name: letters, digits, _ and -'),
        ),
      }),
    },
    response: peerForgetResponseSchema,
  }),
  systemEvents: defineRoute({
    id: 'system.events',
    method: 'GET',
    path: '/system/events',
    auth: 'token',
    request: {
      query: v.object({ events: v.optional(v.string()), path_prefix: v.optional(v.string()) }),
    },
    responseMediaType: 'text/event-stream',
  }),
} as const
