import { createAuth, createMemoryIdentityStore } from '@svcdb/auth'
import type { Auth, AuthOptions, IdentityStore, MagicLinkMessage } from '@svcdb/auth'
import { createManualClock } from '@svcdb/auth/testing'
import type { ManualClock } from '@svcdb/auth/testing'
import { errorBodySchema } from '@svcdb/contract'
import type { ErrorBody } from '@svcdb/contract'
import * as v from 'valibot'
import { expect } from 'vitest'
import { createApp } from '../../app'
import { createBearerAuthenticator } from '../../auth/bearer-authenticator'
import { createLogger } from '../../logger'
import { authRouteHandlers } from './auth-route-handlers'
import { groupRouteHandlers } from './group-route-handlers'
import { userRouteHandlers } from './user-route-handlers'

/** Options of one request made by {@link IdentityTestApp.call}. */
export interface CallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string
  /** Sent as the JSON body. */
  body?: unknown
  /** Extra headers. */
  headers?: Record<string, string>
}

/**
 * The identity routes on a real `createApp` with the bearer authenticator, over a real
 * `createAuth` on a memory store, a manual clock and a sender that records magic links.
 */
export interface IdentityTestApp {
  auth: Auth
  store: IdentityStore
  clock: ManualClock
  /** Every magic link sent, oldest first. */
  links: MagicLinkMessage[]
  /** The bootstrap root key. */
  rootKey: string
  /** An access token of root, from the bootstrap key. */
  rootToken: string
  call(method: string, path: string, options?: CallOptions): Promise<Response>
  /** `POST /auth/token` with `apiKey`; fails the test unless it answers 200. */
  tokenFor(apiKey: string): Promise<string>
  /** Creates a user through the API, an admin key for them and a token from it. */
  userWithToken(
    username: string,
    email?: string,
  ): Promise<{ userId: string; apiKey: string; token: string }>
}

const quiet = createLogger({ level: 'silent' })

/** Builds an {@link IdentityTestApp}; `options` override the auth's. */
export async function createIdentityTestApp(
  options: Partial<AuthOptions> = {},
): Promise<IdentityTestApp> {
  const clock = createManualClock()
  const store = createMemoryIdentityStore()
  const links: MagicLinkMessage[] = []
  const auth = createAuth({
    store,
    clock,
    magicLinkSender: {
      send(message) {
        links.push(message)
        return Promise.resolve()
      },
    },
    ...options,
  })
  const { rootApiKey } = await auth.bootstrap()
  if (rootApiKey === undefined && auth.mode.kind !== 'disabled') {
    throw new Error('the store already had a root key')
  }
  const call = identityCaller(auth)
  const tokenFor = async (apiKey: string) => {
    const res = await call('POST', '/auth/token', { body: { api_key: apiKey } })
    expect(res.status).toBe(200)
    return ((await res.json()) as { token: string }).token
  }
  const rootKey = rootApiKey ?? ''
  const rootToken = auth.mode.kind === 'disabled' ? '' : await tokenFor(rootKey)
  return {
    auth,
    store,
    clock,
    links,
    rootKey,
    rootToken,
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
  }
}

/**
 * `createApp` with the bearer authenticator and the identity routes over `auth`, as a
 * function making one request.
 */
export function identityCaller(
  auth: Auth,
): (method: string, path: string, options?: CallOptions) => Promise<Response> {
  const app = createApp({
    authenticator: createBearerAuthenticator(auth),
    handlers: [
      ...authRouteHandlers({ auth }),
      ...userRouteHandlers({ auth }),
      ...groupRouteHandlers({ auth }),
    ],
    logger: quiet,
  })
  return async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`
    const init: RequestInit = { method, headers }
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json'
      init.body = JSON.stringify(opts.body)
    }
    return app.request(path, init)
  }
}

/**
 * Asserts `res` answers `status` with exactly `{"error": {"code", "message"}}` (plus
 * `details` for validation failures) and, when given, `code`; returns the error.
 */
export async function expectError(
  res: Response,
  status: number,
  code?: string,
): Promise<ErrorBody['error']> {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  const body = v.parse(errorBodySchema, await res.json())
  if (code !== undefined) expect(body.error.code).toBe(code)
  return body.error
}
