import type { Auth } from '@svcdb/auth'
import type { Database } from '@svcdb/engine'
import type { EventBus } from '@svcdb/events'
import type { Scheduler } from '@svcdb/scheduler'
import type { ServerConfig } from '../config/server-config'
import type { Logger } from '../logger'

/**
 * Everything route handlers use, built once by `startServer` (or by a test). Handler
 * factories take the slice they need (`Pick<ServerContext, 'auth'>`), so tests build only
 * that.
 */
export interface ServerContext {
  /** The database (HEAD and forks, versions, archives, GC, system records). */
  db: Database
  /** Identity: tokens, keys, users, groups, shares, permissions. */
  auth: Auth
  /** Tasks and cron schedules. */
  scheduler: Scheduler
  /** Events for `/system/events` and webhooks. */
  bus: EventBus
  config: ServerConfig
  logger: Logger
  /** Unix milliseconds of the server's start, for `uptime_seconds`. */
  startedAt: number
  now(): number
}
