import { Hono } from 'hono'
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { cors } from 'hono/cors'
import type { ConsoleFiles } from './console/console-files'
import { mountConsole } from './console/console-routes'
import type { ConsoleSignIn } from './console/console-sign-in'
import { toErrorResponse } from './errors/error-response'
import { ServerError } from './errors/server-error'
import { createLogger } from './logger'
import type { Logger } from './logger'
import { accessLog } from './observability/access-log'
import { healthRoute } from './routes/health'
import { openApiRoute } from './routes/openapi'
import type { HealthSource } from './routes/health'
import type { AppEnv } from './routing/app-env'
import { mountRoutes } from './routing/mount-routes'
import { rawPathGuard } from './routing/raw-path-guard'
import type { Authenticator } from './routing/principal'
import type { RouteHandler } from './routing/route-handler'
import { SERVER_VERSION } from './version'

/** Response headers the client reads, beyond the CORS-safelisted ones. */
const EXPOSED_HEADERS = [
  'etag',
  'content-range',
  'content-length',
  'content-disposition',
  'x-request-id',
  // The version an export, patch or file read came from.
  'svcdb-version',
]

/** What the app is built from. */
export interface AppDeps {
  /** Establishes callers of `token` and `root` routes. */
  authenticator: Authenticator
  /** Reported by health; the package version when absent. */
  version?: string
  /** Health probe; always `ok` when absent. */
  health?: HealthSource['status']
  /** Origins allowed by CORS (`*` for any); no CORS headers when absent or empty. */
  corsOrigins?: readonly string[]
  logger?: Logger
  /** The routes besides health, each from the contract's table. */
  handlers?: readonly RouteHandler[]
  /** Told of every error answered (health watches for corruption). */
  onError?: (err: unknown) => void
  /** Runs around every request (metrics); optional. */
  observe?: (c: Context<AppEnv>, next: () => Promise<void>) => Promise<void>
  /**
   * The web console: its built files (served at `/console/`, `/` redirects there), or
   * `'missing'` when it is on but not built (`/console/` answers a 404 saying so). Not
   * served when absent (`--no-console`).
   */
  console?: ConsoleFiles | 'missing'
  /**
   * What the console's sign-in screen may offer (`/console/sign-in.json`): no magic links when
   * absent.
   */
  consoleSignIn?: ConsoleSignIn
}

/**
 * Builds the svcdb HTTP app. Every route comes from the contract's route table with its
 * declared auth level; errors are answered as `{"error": {"code", "message"}}`.
 *
 * @example
 * const app = createApp({ authenticator: disabledAuthenticator })
 * const res = await app.request('/system/health')
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const logger = deps.logger ?? createLogger({ level: 'warn' })
  const app = new Hono<AppEnv>()
  app.use('*', accessLog(logger))
  if (deps.corsOrigins !== undefined && deps.corsOrigins.length > 0) {
    const origins = [...deps.corsOrigins]
    app.use(
      '*',
      cors({
        origin: origins.includes('*') ? '*' : origins,
        // Request headers are allowed as the preflight asks (Hono echoes them). Response
        // headers are another matter: scripts of other origins see only the safelisted ones
        // unless told, and reads need the content hash, ranges and sizes, archives their name.
        exposeHeaders: EXPOSED_HEADERS,
      }),
    )
  }
  if (deps.observe !== undefined) app.use('*', deps.observe)
  if (deps.onError !== undefined) {
    const reportError = deps.onError
    app.use('*', async (c, next) => {
      c.set('reportError', reportError)
      await next()
    })
  }
  app.use('*', rawPathGuard)
  const handlers: RouteHandler[] = [
    healthRoute({ version: deps.version ?? SERVER_VERSION, status: deps.health ?? (() => 'ok') }),
    openApiRoute(deps.version ?? SERVER_VERSION),
    ...(deps.handlers ?? []),
  ]
  mountRoutes(app, handlers, deps.authenticator)
  if (deps.console !== undefined)
    mountConsole(app, deps.console === 'missing' ? undefined : deps.console, deps.consoleSignIn)
  const answerError = (err: unknown, c: Context<AppEnv>) => {
    deps.onError?.(err)
    const { status, body, unexpected, headers } = toErrorResponse(err)
    if (unexpected)
      logger.error(`${c.req.method} ${c.req.path} failed`, err, {
        requestId: c.get('requestId'),
      })
    return c.json(body, status as ContentfulStatusCode, headers)
  }
  app.notFound((c) =>
    answerError(new ServerError('NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`), c),
  )
  app.onError(answerError)
  return app
}
