import type { Auth, AuthOptions, BootstrapResult } from './auth'
import { systemClock } from './clock'
import { AuthError } from './errors'
import { createAccess } from './permissions/access'
import type { Access, Grants } from './permissions/access'
import { ROOT_PRINCIPAL } from './principal'
import type { Principal } from './principal'
import { cryptoRandomSource } from './random-source'
import { createAuthContext } from './service/auth-context'
import { createGroupService } from './service/group-service'
import { createKeyService } from './service/key-service'
import { createMagicLinkService } from './service/magic-link-service'
import { mintFirstRootKey, prepareIdentity, resetRootKey } from './service/root-key-service'
import { createSessionService } from './service/session-service'
import { createShareService } from './service/share-service'
import { createUserService } from './service/user-service'
import { ROOT_USER_ID } from './users/user'

const NO_GRANTS: Grants = { groups: [], shares: [] }

/**
 * Builds the identity facade over a store. Call `bootstrap()` once on start and print the
 * root key it may return (a server calls `prepare()` before it listens and
 * `ensureRootKey()` once it does, so a start that fails consumes no key).
 *
 * @example
 * const auth = createAuth({ store: createMemoryIdentityStore() })
 * const { rootApiKey } = await auth.bootstrap()
 * if (rootApiKey !== undefined) console.log(`root api key: ${rootApiKey}`)
 * const { token } = await auth.exchangeApiKey(rootApiKey!)
 * const principal = await auth.authenticate(token)
 */
export function createAuth(options: AuthOptions): Auth {
  const ttl = options.accessTokenTtlSeconds ?? 3600
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > 86_400) {
    throw new RangeError('accessTokenTtlSeconds must be an integer from 1 to 86400')
  }
  const cacheTtlMs = options.cacheTtlMs ?? 5000
  if (!(cacheTtlMs >= 0)) throw new RangeError('cacheTtlMs must be 0 or more')
  const mode = options.mode ?? { kind: 'self-contained' }
  const ctx = createAuthContext({
    store: options.store,
    clock: options.clock ?? systemClock,
    random: options.random ?? cryptoRandomSource,
    accessTokenTtlSeconds: ttl,
    cacheTtlMs,
  })
  const sessions = createSessionService(ctx)
  const magicLinks = createMagicLinkService(ctx, {
    sender: options.magicLinkSender,
    onError: options.onBackgroundError ?? (() => undefined),
    ...(options.magicLinkLimits === undefined ? {} : { limits: options.magicLinkLimits }),
  })
  const accessFor = async (principal: Principal): Promise<Access> => {
    const rules = ctx.cache.rules(principal.rules)
    if (principal.userId === null || principal.userId === ROOT_USER_ID) {
      return createAccess(principal, 'all', rules)
    }
    const user = await ctx.cache.user(principal.userId)
    const grants = user?.isActive === true ? await ctx.cache.grants(user) : NO_GRANTS
    return createAccess(principal, grants, rules)
  }
  // Each step runs once; a failed one is retried by the next call.
  const once = <T>(run: () => Promise<T>): (() => Promise<T>) => {
    let running: Promise<T> | undefined
    return () =>
      (running ??= run().catch((err: unknown) => {
        running = undefined
        throw err
      }))
  }
  // The change stamp last looked at; `null` before the first look.
  let seenStamp: string | undefined | null = null
  const checkExternalChanges = async () => {
    const stamp = await ctx.store.changeStamp()
    if (stamp === seenStamp) return false
    seenStamp = stamp
    ctx.cache.invalidate()
    return true
  }
  const prepare = once(() => prepareIdentity(ctx))
  const ensureRootKey = once(async (): Promise<BootstrapResult> => {
    await prepare()
    if (mode.kind === 'disabled') return {}
    const rootApiKey = await mintFirstRootKey(ctx)
    return rootApiKey === undefined ? {} : { rootApiKey }
  })

  return {
    mode,
    prepare,
    ensureRootKey,
    bootstrap: ensureRootKey,
    resetRootKey: (resetOptions) => resetRootKey(ctx, resetOptions),
    exchangeApiKey: (apiKey) => sessions.exchange(apiKey),
    refresh: (refreshToken) => sessions.refresh(refreshToken),
    requestMagicLink: (email, client) => magicLinks.request(email, client),
    verifyMagicLink: (code) => magicLinks.verify(code),
    authenticate(accessToken) {
      if (mode.kind === 'disabled') return Promise.resolve(ROOT_PRINCIPAL)
      if (accessToken === undefined || accessToken === '') {
        return Promise.reject(
          new AuthError('INVALID_CREDENTIAL', 'invalid or expired access token'),
        )
      }
      return sessions.authenticate(accessToken)
    },
    keys: createKeyService(ctx),
    users: createUserService(ctx),
    groups: createGroupService(ctx),
    shares: createShareService(ctx),
    accessFor,
    resolvePermissions: async (principal, path) => (await accessFor(principal)).decide(path),
    deleteExpired: () => ctx.store.deleteExpired(ctx.clock.now()),
    idle: () => magicLinks.idle(),
    checkExternalChanges,
  }
}
