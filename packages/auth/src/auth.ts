import type { AuthMode } from './auth-mode'
import type { Clock } from './clock'
import type { MagicLinkSender } from './magic-links/magic-link-sender'
import type { MagicLinkLimits } from './magic-links/request-limiter'
import type { Access, PermissionDecision } from './permissions/access'
import type { Principal } from './principal'
import type { RandomSource } from './random-source'
import type { GroupService } from './service/group-service'
import type { KeyService } from './service/key-service'
import type { ResetRootKeyOptions, ResetRootKeyResult } from './service/root-key-service'
import type { AccessGrant } from './service/magic-link-service'
import type { TokenGrant } from './service/session-service'
import type { ShareService } from './service/share-service'
import type { UserService } from './service/user-service'
import type { IdentityStore } from './store/identity-store'

/** Options of `createAuth`. */
export interface AuthOptions {
  /** Where identity lives. */
  store: IdentityStore
  /** Default `self-contained`. With `disabled`, every caller is root and no key is bootstrapped. */
  mode?: AuthMode
  /** Default: the wall clock. */
  clock?: Clock
  /** Default: `node:crypto`. */
  random?: RandomSource
  /** Lifetime of access tokens; default 3600 (1 hour), at most 86400. */
  accessTokenTtlSeconds?: number
  /**
   * How long a key, user or grant lookup may be reused; default 5000 ms. Changes made through
   * this `Auth` clear the cache at once, and those of other processes when
   * `checkExternalChanges` runs; the limit bounds how long a change it misses goes unseen.
   */
  cacheTtlMs?: number
  /** Delivers magic links; `createLoggingMagicLinkSender` in development. */
  magicLinkSender?: MagicLinkSender
  /** Receives failures of background work (magic-link delivery); ignored by default. */
  onBackgroundError?: (err: unknown) => void
  /**
   * In-memory limits on magic-link requests, checked before anything is stored: 20 per
   * client per minute and 200 per minute in all by default.
   */
  magicLinkLimits?: MagicLinkLimits
}

/** The outcome of `bootstrap`. */
export interface BootstrapResult {
  /**
   * A new root API key, present when none existed: print it once
   * (`root api key: svc_…`); it is never shown again.
   */
  rootApiKey?: string
}

/** Everything identity: the facade the server calls. */
export interface Auth {
  readonly mode: AuthMode
  /**
   * Prepares the store on start: the signing key, the root user and, unless the mode is
   * `disabled`, a root API key when no unrestricted, usable one exists. Idempotent.
   * Equal to `prepare()` then `ensureRootKey()`.
   */
  bootstrap(): Promise<BootstrapResult>
  /** The signing key and the root user, created when absent; never mints a key. Idempotent. */
  prepare(): Promise<void>
  /**
   * The root API key when no unrestricted, usable one exists (never in `disabled` mode), after
   * `prepare()`. Call it only once the key can reach the operator (the server listens), so a
   * start that fails does not consume it. Idempotent.
   */
  ensureRootKey(): Promise<BootstrapResult>
  /**
   * Offline recovery of a lost root key: mints a new one whatever exists and, with
   * `revokeOthers`, revokes every other key of the root user. Touches nothing else.
   */
  resetRootKey(options?: ResetRootKeyOptions): Promise<ResetRootKeyResult>
  /**
   * `POST /auth/token`: an API key for an access token and a refresh token.
   *
   * @throws {AuthError} `INVALID_CREDENTIAL` for a malformed, unknown, revoked or expired key
   * or an inactive user (one message for all); `TOKEN_CREATION_FAILED`.
   */
  exchangeApiKey(apiKey: string): Promise<TokenGrant>
  /**
   * `POST /auth/refresh`: rotates a refresh token. Presenting a token already rotated revokes
   * its whole family. The new access token keeps the key id, so the key's rules still apply.
   *
   * @throws {AuthError} `INVALID_CREDENTIAL`; `TOKEN_CREATION_FAILED`.
   */
  refresh(refreshToken: string): Promise<TokenGrant>
  /**
   * `POST /auth/magic-link`: rate-limited per client (`client`, its remote address; absent
   * ones share one budget) and in all (`magicLinkLimits`, in memory), then 5 per 15 minutes
   * per address (stored); the same answer whether or not the account exists.
   *
   * @throws {AuthError} `RATE_LIMITED`; `INVALID_INPUT`.
   */
  requestMagicLink(email: string, client?: string): Promise<{ message: string }>
  /**
   * `GET /auth/magic-link/verify`: a single-use code for an access token (no refresh token).
   *
   * @throws {AuthError} `INVALID_CREDENTIAL`; `TOKEN_CREATION_FAILED`.
   */
  verifyMagicLink(code: string): Promise<AccessGrant>
  /**
   * The caller behind a bearer credential: an access token (JWT), or an API key (`svc_…`)
   * given directly, with that key's rules. Either way the user must be active and the key
   * neither revoked nor expired; a revocation made through this `Auth` counts at once, one
   * made by another process within the identity cache's TTL. In `disabled` mode, always root.
   *
   * @throws {AuthError} `INVALID_CREDENTIAL`.
   */
  authenticate(accessToken: string | undefined): Promise<Principal>
  /** API keys, administrative and self-service. */
  readonly keys: KeyService
  /** Users (root only). */
  readonly users: UserService
  /** Groups (root only). */
  readonly groups: GroupService
  /** Shares and share links (root only). */
  readonly shares: ShareService
  /** The permissions of `principal`, resolved once for many paths (a request, a listing). */
  accessFor(principal: Principal): Promise<Access>
  /** The permissions of `principal` on one path, with how a denial is answered. */
  resolvePermissions(principal: Principal, path: string): Promise<PermissionDecision>
  /** Removes expired refresh tokens, magic-link codes and rate-limit hits; returns how many. */
  deleteExpired(): Promise<number>
  /** Resolves when background work (magic-link delivery) has finished. */
  idle(): Promise<void>
  /**
   * Looks whether another process sharing the store changed users, groups, keys or shares
   * (one read of the store's change stamp) and, if so, forgets every cached lookup, so a
   * revocation there counts here from now on. Resolves true when it did. A server calls it
   * whenever the shared store says something was written (the metadata store's `watch`);
   * until then, such a change can go unseen for at most `cacheTtlMs`.
   */
  checkExternalChanges(): Promise<boolean>
}
