import { healthResponseSchema } from '../health'
import { defineRoute } from '../route'

/** Routes of /system/health, /system/stats, /system/metrics and /system/events. */
export const systemRoutes = {
  systemHealth: defineRoute({
    id: 'system.health',
    method: 'GET',
    path: '/system/health',
    auth: 'none',
    response: healthResponseSchema,
  }),
} as const
