import { AuthError } from '../errors'
import { crashPoint } from '../internal/crash-point'
import { digestSecret } from '../internal/secret-digest'
import { isUuid } from '../internal/uuid'
import { isKeyUsable } from '../keys/api-key'
import type { ApiKeyRecord } from '../keys/api-key'
import { principalOf } from '../principal'
import type { Principal } from '../principal'
import {
  REFRESH_TOKEN_TTL_MS,
  formatRefreshToken,
  isRefreshTokenString,
} from '../tokens/refresh-token'
import type { AuthContext } from './auth-context'
import { authenticateKey } from './key-service'

/** An access token with its refresh token (`POST /auth/token`, `POST /auth/refresh`). */
export interface TokenGrant {
  /** The JWT. */
  token: string
  /** Lifetime of `token` in seconds. */
  expiresIn: number
  /** `rt_…`, single use. */
  refreshToken: string
}

/** Key exchange, refresh, and verification of access tokens. */
export interface SessionService {
  exchange(apiKey: string): Promise<TokenGrant>
  refresh(refreshToken: string): Promise<TokenGrant>
  /** The caller behind an access token, or behind an API key given in its place. */
  authenticate(accessToken: string): Promise<Principal>
}

const INVALID_REFRESH = 'invalid or expired refresh token'
/** How every API key string starts; no JWT does (they start with `eyJ`). */
const API_KEY_START = 'svc_'
const INVALID_ACCESS = 'invalid or expired access token'

/** The sessions of one `Auth`. */
export function createSessionService(ctx: AuthContext): SessionService {
  const newRefreshToken = async (familyId: string, key: ApiKeyRecord) => {
    const refreshToken = formatRefreshToken(ctx.secretBytes())
    const now = ctx.clock.now()
    await ctx.store.putRefreshToken({
      digest: digestSecret(refreshToken),
      familyId,
      userId: key.userId,
      keyId: key.keyId,
      issuedAt: now,
      expiresAt: now + REFRESH_TOKEN_TTL_MS,
    })
    return refreshToken
  }
  const grant = async (key: ApiKeyRecord, familyId: string): Promise<TokenGrant> => {
    const codec = await ctx.codec()
    const { token, expiresIn } = await codec.mint({
      // A share key has no user: its tokens name the key itself.
      subject: key.userId ?? key.keyId,
      keyId: key.keyId,
      now: ctx.clock.now(),
    })
    return { token, expiresIn, refreshToken: await newRefreshToken(familyId, key) }
  }
  const refused = (message: string) => new AuthError('INVALID_CREDENTIAL', message)

  return {
    async exchange(apiKey) {
      const key = await authenticateKey(ctx, apiKey)
      return grant(key, ctx.newId())
    },

    async refresh(refreshToken) {
      const text = typeof refreshToken === 'string' ? refreshToken.slice(0, 256) : ''
      const digest = digestSecret(text)
      if (!isRefreshTokenString(text)) throw refused(INVALID_REFRESH)
      const now = ctx.clock.now()
      const used = await ctx.store.consumeRefreshToken(digest, now)
      // The old token is spent and the new one not yet stored: a crash here must not revive it.
      crashPoint('mid-token-rotation')
      if (used.outcome !== 'consumed' || used.token.keyId === undefined) {
        throw refused(INVALID_REFRESH)
      }
      // The key and its holder are re-checked: a revoked key ends its refresh chain too.
      const key = await ctx.store.getApiKey(used.token.keyId)
      const holder = key?.userId ?? null
      const user = holder === null ? undefined : await ctx.store.getUser(holder)
      const alive =
        key !== undefined &&
        isKeyUsable(key, now) &&
        (key.userId === null || user?.isActive === true)
      if (!alive) {
        await ctx.store.revokeRefreshFamily(used.token.familyId, now)
        throw refused(INVALID_REFRESH)
      }
      return grant(key, used.token.familyId)
    },

    async authenticate(accessToken) {
      // An API key used directly as the bearer credential (DESIGN §12), with its own rules.
      if (typeof accessToken === 'string' && accessToken.startsWith(API_KEY_START)) {
        const key = await authenticateKey(ctx, accessToken, 'cached')
        return principalOf(key.userId, key.keyId, key.rules)
      }
      const codec = await ctx.codec()
      const now = ctx.clock.now()
      const claims = await codec.verify(typeof accessToken === 'string' ? accessToken : '', now)
      let userId: string | null = claims.sub
      let rules: ApiKeyRecord['rules'] = []
      if (claims.key_id !== undefined) {
        const key = await ctx.cache.key(claims.key_id)
        if (
          key === undefined ||
          !isKeyUsable(key, now) ||
          (key.userId ?? key.keyId) !== claims.sub
        ) {
          throw refused(INVALID_ACCESS)
        }
        userId = key.userId
        rules = key.rules
      } else if (!isUuid(userId)) {
        throw refused(INVALID_ACCESS)
      }
      if (userId !== null) {
        const user = await ctx.cache.user(userId)
        if (user === undefined || !user.isActive) throw refused(INVALID_ACCESS)
      }
      return principalOf(userId, claims.key_id, rules)
    },
  }
}
