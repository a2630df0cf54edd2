import type { Auth, AuthOptions, IdentityStore, MagicLinkMessage } from '@svcdb/auth'
import { createAuthHarness } from '@svcdb/auth/testing'
import type { ManualClock } from '@svcdb/auth/testing'
import type { Database } from '@svcdb/engine'
import { expect } from 'vitest'
import { createApp } from '../../src/app'
import type { AppDeps } from '../../src/app'
import { createBearerAuthenticator } from '../../src/auth/bearer-authenticator'
import { createLogger } from '../../src/logger'
import type { Authenticator } from '../../src/routing/principal'
import type { RouteHandler } from '../../src/routing/route-handler'
import { callerOf, requestsAs } from './app-requests'
import type { CallOptions, TestRequest } from './app-requests'
import { openTempDatabase } from './temp-database'

/** What a suite's route handlers are built from. */
export interface TestAppDeps {
  db: Database
  auth: Auth
  /** The database's directory (a fresh temp dir, removed on close). */
  dir: string
}

/** Options of {@link startTestApp}. */
export interface TestAppOptions {
  /**
   * Overrides of the auth's options. Without them: a memory identity store, the kit's
   * {@link TestApp.clock} and a sender that records magic links in {@link TestApp.links}.
   */
  auth?: Partial<AuthOptions> | ((deps: { db: Database }) => Partial<AuthOptions>)
  /** Default: the bearer authenticator over the auth. */
  authenticator?: Authenticator
  /** `createApp`'s middleware run around every request (e.g. the request metrics). */
  observe?: AppDeps['observe']
}

/**
 * Route handlers on a real `createApp`, over a real database in a fresh temp dir and a real
 * `createAuth`, with root's key and token at hand.
 */
export interface TestApp extends TestAppDeps {
  app: ReturnType<typeof createApp>
  store: IdentityStore
  /**
   * The auth's clock (unless the options gave another): stopped at the wall time of the
   * start, it moves only when a test advances it.
   */
  clock: ManualClock
  /** Every magic link sent, oldest first. */
  links: MagicLinkMessage[]
  /** The bootstrap root key ('' when auth is disabled). */
  rootKey: string
  /** An access token of root ('' when auth is disabled). */
  rootToken: string
  /** Requests as the holder of `token`. */
  as(token: string): (path: string, init?: TestRequest) => Response | Promise<Response>
  /** One request by method and path. */
  call(method: string, path: string, options?: CallOptions): Promise<Response>
  /** `POST /auth/token` with `apiKey` (needs the auth routes); fails unless it answers 200. */
  tokenFor(apiKey: string): Promise<string>
  /**
   * Creates a user through the API (needs the user and auth routes), an admin key for them
   * and a token from it.
   */
  userWithToken(
    username: string,
    email?: string,
  ): Promise<{ userId: string; apiKey: string; token: string }>
  /** Waits for the auth's background writes, closes the database and removes its directory. */
  close(): Promise<void>
}

const quiet = createLogger({ level: 'silent' })

/** Starts the routes `handlers` makes on a fresh database and identity store. */
export async function startTestApp(
  handlers: (deps: TestAppDeps) => RouteHandler[],
  options: TestAppOptions = {},
): Promise<TestApp> {
  const temp = await openTempDatabase('svcdb-routes-')
  const { db, path: dir } = temp
  const overrides = typeof options.auth === 'function' ? options.auth({ db }) : options.auth
  // Stopped at the wall time of the start: expiries look real, yet nothing moves on its own.
  const { auth, store, clock, links, rootKey } = await createAuthHarness({
    startAt: Date.now(),
    ...overrides,
  })
  const disabled = auth.mode.kind === 'disabled'
  const rootToken = disabled ? '' : (await auth.exchangeApiKey(rootKey)).token
  const app = createApp({
    authenticator: options.authenticator ?? createBearerAuthenticator(auth),
    handlers: handlers({ db, auth, dir }),
    logger: quiet,
    ...(options.observe === undefined ? {} : { observe: options.observe }),
  })
  const call = callerOf(app)
  const tokenFor = async (apiKey: string) => {
    const res = await call('POST', '/auth/token', { body: { api_key: apiKey } })
    expect(res.status).toBe(200)
    return ((await res.json()) as { token: string }).token
  }
  return {
    db,
    auth,
    dir,
    app,
    store,
    clock,
    links,
    rootKey,
    rootToken,
    as: (token) => requestsAs(app, token),
    call,
    tokenFor,
    async userWithToken(username, email) {
      const body = email === undefined ? { username } : { username, email }
      const created = await call('POST', '/system/users', { token: rootToken, body })
      expect(created.status).toBe(201)
      const { user_id: userId } = (await created.json()) as { user_id: string }
      const key = await call('POST', '/auth/keys/admin', {
        token: rootToken,
        body: { user_id: userId },
      })
      expect(key.status).toBe(201)
      const { api_key: apiKey } = (await key.json()) as { api_key: string }
      return { userId, apiKey, token: await tokenFor(apiKey) }
    },
    async close() {
      await auth.idle()
      await temp.destroy()
    },
  }
}
