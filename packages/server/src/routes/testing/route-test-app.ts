import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAuth, createMemoryIdentityStore } from '@svcdb/auth'
import type { Auth } from '@svcdb/auth'
import { errorBodySchema } from '@svcdb/contract'
import type { ErrorBody } from '@svcdb/contract'
import { Database } from '@svcdb/engine'
import * as v from 'valibot'
import { expect } from 'vitest'
import { createApp } from '../../app'
import { createBearerAuthenticator } from '../../auth/bearer-authenticator'
import { createLogger } from '../../logger'
import type { RouteHandler } from '../../routing/route-handler'

/** A request of {@link RouteTestApp.as}: `json` is sent as a JSON body. */
export type TestRequest = RequestInit & { json?: unknown }

/**
 * Route handlers on a real `createApp` with the bearer authenticator, over a real database
 * on disk and a real `createAuth` (memory store) with root's token at hand.
 */
export interface RouteTestApp {
  dir: string
  db: Database
  auth: Auth
  app: ReturnType<typeof createApp>
  rootToken: string
  /** Requests as the holder of `token`. */
  as(token: string): (path: string, init?: TestRequest) => Response | Promise<Response>
  /** Closes the database and removes its directory. */
  close(): Promise<void>
}

/** Starts the routes `handlers` makes on a fresh database and identity store. */
export async function startRouteTestApp(
  handlers: (deps: { db: Database; auth: Auth; dir: string }) => RouteHandler[],
): Promise<RouteTestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-routes-'))
  const db = await Database.open({ path: dir })
  const auth = createAuth({ store: createMemoryIdentityStore() })
  const { rootApiKey } = await auth.bootstrap()
  const rootToken = (await auth.exchangeApiKey(rootApiKey as string)).token
  const app = createApp({
    authenticator: createBearerAuthenticator(auth),
    handlers: handlers({ db, auth, dir }),
    logger: createLogger({ level: 'silent' }),
  })
  return {
    dir,
    db,
    auth,
    app,
    rootToken,
    as:
      (token) =>
      (path, init = {}) => {
        const { json, ...rest } = init
        return app.request(path, {
          ...rest,
          ...(json === undefined ? {} : { body: JSON.stringify(json) }),
          headers: {
            authorization: `Bearer ${token}`,
            ...(json === undefined ? {} : { 'content-type': 'application/json' }),
            ...(rest.headers as Record<string, string>),
          },
        })
      },
    async close() {
      await db.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** Checks an error answer's status and returns its body's error. */
export async function errorOf(res: Response, status: number): Promise<ErrorBody['error']> {
  expect(res.status).toBe(status)
  return v.parse(errorBodySchema, await res.json()).error
}

/** Checks an error answer's status and returns its code. */
export async function errorCode(res: Response, status: number): Promise<string> {
  return (await errorOf(res, status)).code
}
