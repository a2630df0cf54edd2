import { createAuth, createLoggingMagicLinkSender } from '@svcdb/auth'
import type { Database } from '@svcdb/engine'
import type { Auth, MagicLinkSender } from '@svcdb/auth'
import { createEventBus, startHeartbeat, startMetricsPulse } from '@svcdb/events'
import type { EventBus } from '@svcdb/events'
import { createScheduler } from '@svcdb/scheduler'
import type { Scheduler } from '@svcdb/scheduler'
import { createEngineIdentityStore, openFileIdentityStore } from '../adapters'
import { createEngineScheduleStore, createEngineTaskStore } from '../adapters'
import { createBearerAuthenticator } from '../auth/bearer-authenticator'
import type { ServerConfig } from '../config/server-config'
import { consoleMagicLinkUrl } from '../console/console-magic-link'
import { createEmailMagicLinkSender, createEmailService } from '../email'
import type { EmailService } from '../email'
import { startDebugEventLog } from './debug-event-log'
import type { Logger } from '../logger'
import { createDiskSampler } from '../observability/disk-sampler'
import { createServerMetrics } from '../observability/server-metrics'
import type { ServerMetrics } from '../observability/server-metrics'
import { statsSnapshot } from '../observability/stats-snapshot'
import { createStorageHealth } from '../observability/storage-health'
import { emailRouteHandlers } from '../routes/email'
import { fileRouteHandlers } from '../routes/files/file-route-handlers'
import { namedVersionRouteHandlers } from '../routes/named-versions/named-version-route-handlers'
import { createShareNotifier } from '../routes/shares/share-notifier'
import { shareRouteHandlers } from '../routes/shares/share-route-handlers'
import { uploadRouteHandlers } from '../routes/uploads/upload-route-handlers'
import { authRouteHandlers, groupRouteHandlers, userRouteHandlers } from '../routes/identity'
import { systemRouteHandlers } from '../routes/system/system-route-handlers'
import { taskRouteHandlers } from '../routes/tasks/task-route-handlers'
import { versionRouteHandlers } from '../routes/versions/version-route-handlers'
import type { Authenticator } from '../routing/principal'
import type { RouteHandler } from '../routing/route-handler'
import { registerTaskHandlers } from '../tasks/task-handlers'
import { SERVER_VERSION } from '../version'
import { createEngineChangeLog, createEngineEventPublisher } from './engine-events'
import { createIndexConfigWatch } from './index-config-watch'
import { openDatabase } from './open-database'
import {
  clusterReindexClaim,
  clusterSchedulerOptions,
  wakeOnOtherNodesWrites,
} from './cluster-scheduling'
import { watchIdentityChanges } from './identity-watch'
import { startNodeHeartbeat } from './node-heartbeat'
import { startWebhooks } from './webhook-wiring'
import { peerRouteHandlers } from '../peers/peer-route-handlers'
import { startPeers } from '../peers/start-peers'

/** How long identity lookups are cached when other nodes share the database. */
const SHARED_IDENTITY_CACHE_MS = 1_000

/** Everything a running server is made of, and how to release it. */
export interface Services {
  db: Database
  auth: Auth
  bus: EventBus
  scheduler: Scheduler
  metrics: ServerMetrics
  authenticator: Authenticator
  handlers: RouteHandler[]
  /** `degraded` after corruption was met, while writes fail for lack of space, or past 95 % disk use. */
  health(): Promise<'ok' | 'degraded'>
  /** Ends event streams, so a graceful HTTP close is not held open by them. */
  beginShutdown(): void
  /** Stops tasks and pulses, and closes the database. */
  close(): Promise<void>
  /** Notes an error answered to a client (corruption or a full disk turns health `degraded`). */
  observeError(err: unknown): void
}

/**
 * Where magic links go: stdout in `--dev` (spec), else email. The base URL is only known
 * once the server listens (port 0), hence the getter. When the console is served, the mailed
 * link opens it (it exchanges the code itself), and `--dev` prints that link too.
 */
function magicLinkSender(
  config: ServerConfig,
  email: EmailService,
  stdout: (line: string) => void,
  baseUrl: () => string,
): MagicLinkSender {
  return {
    async send(message) {
      const sender = config.dev
        ? createLoggingMagicLinkSender({ baseUrl: baseUrl(), log: (line) => stdout(`${line}\n`) })
        : createEmailMagicLinkSender(email, { baseUrl: baseUrl(), console: config.console })
      await sender.send(message)
      if (config.dev && config.console)
        stdout(`  in the web console: ${consoleMagicLinkUrl(baseUrl(), message.code)}\n`)
    },
  }
}

/**
 * Opens the database and builds identity, events, tasks, metrics and every route on it
 * (DESIGN §2, §7). The caller owns the result and must `close()` it.
 */
export async function openServices(
  config: ServerConfig,
  logger: Logger,
  options: { baseUrl: () => string; stdout: (text: string) => void },
): Promise<Services> {
  const startedAt = Date.now()
  const opened = await openDatabase(config.storage, config.dataDir, {
    headLogRetentionMs: config.headLogRetentionMs,
    nodeId: config.nodeId,
  })
  const { db } = opened
  const cleanups: (() => Promise<void> | void)[] = [() => opened.close()]
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse())
      await Promise.resolve(cleanup()).catch((err: unknown) =>
        logger.error('shutdown step failed', err),
      )
  }
  try {
    let identity = createEngineIdentityStore(db)
    if (config.auth.kind === 'file') {
      const file = await openFileIdentityStore(config.auth.path)
      cleanups.push(() => file.close())
      identity = file.store
    }
    const email = createEmailService({ db })
    const auth = createAuth({
      store: identity,
      mode: config.auth,
      // A backstop only: other nodes' identity changes clear the cache through the watch below.
      ...(opened.shared ? { cacheTtlMs: SHARED_IDENTITY_CACHE_MS } : {}),
      magicLinkSender: magicLinkSender(config, email, options.stdout, options.baseUrl),
      onBackgroundError: (err) =>
        logger.warn(`magic link delivery failed: ${(err as Error).message}`),
    })
    // The root key is minted by the caller once it listens: a start that fails keeps it.
    await auth.prepare()
    if (config.auth.kind !== 'file') {
      // Users, groups, keys, shares and revocations changed on another node clear this node's
      // cache within a notification's round trip (`--auth file://` is this node's own).
      cleanups.push(
        watchIdentityChanges(opened, auth, (err) =>
          logger.warn(`identity change check failed: ${(err as Error).message}`),
        ),
      )
    }
    cleanups.push(() => auth.idle())

    // Change events get ids every node shares, so Last-Event-ID resumes on any node.
    const bus = createEventBus({ nodeId: config.nodeId, changeLog: createEngineChangeLog(db) })
    cleanups.push(() => bus.close())
    cleanups.push(startDebugEventLog(bus, logger))
    const engineEvents = createEngineEventPublisher(db, bus, (err) =>
      logger.warn(`events of a version move skipped: ${(err as Error).message}`),
    )
    const stopChanges = db.onChange((change) => engineEvents.publish(change))
    cleanups.push(() => {
      stopChanges()
      return engineEvents.idle()
    })

    cleanups.push(
      await startNodeHeartbeat(opened, {
        version: SERVER_VERSION,
        url: options.baseUrl,
        onError: (err) => logger.warn(`cluster heartbeat skipped: ${(err as Error).message}`),
        onDuplicateId: (other) =>
          logger.warn(
            `node id ${config.nodeId} was alive ${Date.now() - other.lastSeen} ms ago` +
              (other.url === undefined ? '' : ` at ${other.url}`) +
              ': give each node its own --node-id (a restart right after a crash shows this too)',
          ),
      }),
    )
    const scheduler = createScheduler({
      taskStore: createEngineTaskStore(db),
      scheduleStore: createEngineScheduleStore(db),
      onError: (err) => logger.error('task runner error', err),
      ...clusterSchedulerOptions(opened),
    })
    registerTaskHandlers(scheduler.tasks, { db, dataDir: config.dataDir })
    await scheduler.start()
    cleanups.push(() => scheduler.stop())
    cleanups.push(wakeOnOtherNodesWrites(opened, scheduler.tasks))
    const watchIndexConfigs = createIndexConfigWatch({
      bus,
      tasks: scheduler.tasks,
      onError: (err) => logger.warn(`reindex not enqueued: ${(err as Error).message}`),
      ...clusterReindexClaim(opened),
    })
    const stopConfigWatch = db.onChange((change) => void watchIndexConfigs(change))
    cleanups.push(stopConfigWatch)

    const disk = createDiskSampler(config.dataDir)
    cleanups.push(() => disk.stop())
    const identityInfo = {
      version: SERVER_VERSION,
      databasePath: config.dataDir,
      nodeId: config.nodeId,
      startedAt,
    }
    const heartbeat = startHeartbeat({ bus })
    cleanups.push(() => heartbeat.stop())
    const pulse = startMetricsPulse({
      bus,
      intervalMs: config.metricsIntervalMs,
      stats: () => statsSnapshot(db.stats(), disk.latest(), identityInfo, Date.now()),
      onError: (err) => logger.warn(`metrics event skipped: ${err.message}`),
    })
    cleanups.push(() => pulse.stop())

    // Every node queues each event's deliveries (once, by id); the lock holder delivers them.
    const webhooks = await startWebhooks(
      db,
      bus,
      config.webhookAllow,
      logger,
      opened.shared ? { leases: opened.leases } : {},
    )
    cleanups.push(() => webhooks.stop())

    // Pulls from other deployments; one node of a cluster per peer (it holds the peer's lock).
    const peers = startPeers({
      db,
      peers: config.peers,
      intervalMs: config.peerIntervalMs,
      leases: opened.leases,
      logger,
    })
    cleanups.push(() => peers.stop())

    const notifier = createShareNotifier({ auth, email, logger, baseUrl: options.baseUrl })
    cleanups.push(() => notifier.idle())

    const shutdown = new AbortController()
    const metrics = createServerMetrics({
      db,
      bus,
      tasks: scheduler.tasks,
      webhooks: () => {
        const s = webhooks.dispatcher.stats()
        return {
          delivered: s.delivered,
          failed: s.failed,
          // Per node: with several nodes, another one may deliver what this one queued.
          queued: Math.max(0, s.enqueued - s.delivered - s.failed - s.discarded),
        }
      },
    })
    let corrupt = false
    const storage = createStorageHealth({
      onTransition(full, err) {
        // The cause names the file and the OS error: for the operator, never for callers.
        const cause = (err as { cause?: unknown } | undefined)?.cause
        if (full)
          logger.warn(
            `writes fail for lack of space: ${(err as Error).message}` +
              (cause instanceof Error ? ` (${cause.message})` : ''),
          )
        else logger.info('writes succeed again: storage has room')
      },
    })
    // A durable commit proves writes work again (its chunks and metadata reached the disk).
    cleanups.push(db.onChange(() => storage.writeSucceeded()))
    const authenticator = createBearerAuthenticator(auth)
    const handlers = [
      ...authRouteHandlers({ auth }),
      ...userRouteHandlers({ auth }),
      ...groupRouteHandlers({ auth }),
      ...emailRouteHandlers({ email }),
      ...taskRouteHandlers({ db, scheduler }),
      ...versionRouteHandlers({ db }),
      ...namedVersionRouteHandlers({ db, auth }),
      ...uploadRouteHandlers({ db, auth }),
      // Before the file routes: static /files/share… paths must win over /files/{path*}.
      ...shareRouteHandlers({ auth, bus, notifier }),
      ...fileRouteHandlers({ db, auth }),
      ...systemRouteHandlers({
        db,
        auth,
        authenticator,
        bus,
        disk,
        metrics,
        identity: identityInfo,
        now: Date.now,
        shutdown: shutdown.signal,
        ...(peers.active ? { sync: () => peers.book.syncSection() } : {}),
      }),
      ...peerRouteHandlers({ book: peers.book, db, peers: config.peers }),
    ]
    const services: Services = {
      db,
      auth,
      bus,
      scheduler,
      metrics,
      authenticator,
      handlers,
      health: async () =>
        corrupt || storage.full() || (await disk.refreshUsage()) >= 95 ? 'degraded' : 'ok',
      beginShutdown: () => shutdown.abort(),
      close: closeAll,
      observeError(err) {
        if ((err as { code?: unknown }).code === 'CONTENT_CORRUPT') corrupt = true
        storage.observeError(err)
      },
    }
    return services
  } catch (err) {
    await closeAll()
    throw err
  }
}
