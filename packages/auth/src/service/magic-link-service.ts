import { AuthError } from '../errors'
import { digestSecret } from '../internal/secret-digest'
import {
  MAGIC_LINK_RATE_LIMIT,
  MAGIC_LINK_RATE_WINDOW_MS,
  MAGIC_LINK_TTL_MS,
  formatMagicLinkCode,
  isMagicLinkCodeString,
} from '../magic-links/magic-link-code'
import type { MagicLinkSender } from '../magic-links/magic-link-sender'
import { createRequestLimiter } from '../magic-links/request-limiter'
import type { MagicLinkLimits } from '../magic-links/request-limiter'
import { identityKey } from '../users/user'
import type { AuthContext } from './auth-context'

/** An access token without a refresh token (magic-link sign-in). */
export interface AccessGrant {
  token: string
  /** Seconds. */
  expiresIn: number
}

/** The answer to every magic-link request, whether or not the account exists. */
export const MAGIC_LINK_REQUESTED_MESSAGE =
  'if an account has this email address, a sign-in link has been sent to it'

/** Passwordless sign-in by emailed, single-use codes. */
export interface MagicLinkService {
  /**
   * Counts the request against the client's and the global limits (in memory), then against
   * the address's rate limit (stored), then hands creating and delivering the link to the
   * background, so neither the answer nor its timing depends on whether an active account
   * has this address. `client` names the requester (its remote address); requests without
   * one share one budget.
   *
   * @throws {AuthError} `RATE_LIMITED` (with `retryAfterMs`); `INVALID_INPUT` for a
   * malformed address.
   */
  request(email: string, client?: string): Promise<{ message: string }>
  /** @throws {AuthError} `INVALID_CREDENTIAL` for an unknown, expired or used code. */
  verify(code: string): Promise<AccessGrant>
  /** Resolves once every background delivery started so far has finished. */
  idle(): Promise<void>
}

/** Options of {@link createMagicLinkService}. */
export interface MagicLinkServiceOptions {
  /** Delivers links; without one, requests are answered and counted but nothing is sent. */
  sender: MagicLinkSender | undefined
  /** Receives failures of background deliveries. */
  onError: (err: unknown) => void
  /** Per-client and global limits; the defaults of `DEFAULT_MAGIC_LINK_LIMITS` otherwise. */
  limits?: MagicLinkLimits
}

const INVALID_CODE = 'invalid, expired or used magic link code'
const EMAIL_SHAPE = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/

/** The magic links of one `Auth`. */
export function createMagicLinkService(
  ctx: AuthContext,
  options: MagicLinkServiceOptions,
): MagicLinkService {
  const pending = new Set<Promise<void>>()
  const limiter = createRequestLimiter(options.limits ?? {}, () => ctx.clock.now())
  const deliver = async (email: string) => {
    const user = await ctx.store.findUserByEmail(email)
    if (user === undefined || !user.isActive || user.email === undefined) return
    if (options.sender === undefined) return
    const code = formatMagicLinkCode(ctx.secretBytes())
    const now = ctx.clock.now()
    const expiresAt = now + MAGIC_LINK_TTL_MS
    await ctx.store.putMagicLinkCode({
      digest: digestSecret(code),
      userId: user.userId,
      createdAt: now,
      expiresAt,
    })
    await options.sender.send({ email: user.email, userId: user.userId, code, expiresAt })
  }
  return {
    async request(email, client = 'unknown') {
      if (typeof email !== 'string' || email.length > 254 || !EMAIL_SHAPE.test(email.trim())) {
        throw new AuthError('INVALID_INPUT', 'email: must be an email address')
      }
      // Before the stored per-address limit: random addresses would each write a record.
      const taken = limiter.take(client)
      if (!taken.allowed) {
        const whose = taken.scope === 'client' ? 'from this client' : 'on this server'
        throw new AuthError('RATE_LIMITED', `too many sign-in links requested ${whose}`, {
          retryAfterMs: taken.retryAfterMs,
        })
      }
      const normalized = identityKey(email)
      // Keyed by a digest: the store never keeps addresses of accounts that do not exist.
      const limit = await ctx.store.hitRateLimit(`magic-link:${digestSecret(normalized)}`, {
        now: ctx.clock.now(),
        windowMs: MAGIC_LINK_RATE_WINDOW_MS,
        limit: MAGIC_LINK_RATE_LIMIT,
      })
      if (!limit.allowed) {
        throw new AuthError('RATE_LIMITED', 'too many sign-in links requested for this address', {
          retryAfterMs: limit.retryAfterMs,
        })
      }
      const job = deliver(normalized).catch(options.onError)
      pending.add(job)
      void job.finally(() => pending.delete(job))
      return { message: MAGIC_LINK_REQUESTED_MESSAGE }
    },

    async verify(code) {
      const text = typeof code === 'string' ? code.slice(0, 256) : ''
      const digest = digestSecret(text)
      if (!isMagicLinkCodeString(text)) throw new AuthError('INVALID_CREDENTIAL', INVALID_CODE)
      const now = ctx.clock.now()
      const record = await ctx.store.consumeMagicLinkCode(digest, now)
      const user = record === undefined ? undefined : await ctx.store.getUser(record.userId)
      if (user === undefined || !user.isActive) {
        throw new AuthError('INVALID_CREDENTIAL', INVALID_CODE)
      }
      const codec = await ctx.codec()
      return codec.mint({ subject: user.userId, now })
    },

    async idle() {
      while (pending.size > 0) await Promise.all([...pending])
    },
  }
}
