/** A refresh token as stored: the digest of its secret, never the token itself. */
export interface RefreshTokenRecord {
  /** base64url SHA-256 of the whole `rt_…` string; the record's identity. */
  digest: string
  /**
   * Every token rotated from one exchange shares a family; presenting a token that was
   * already rotated revokes the family.
   */
  familyId: string
  /** The holder; `null` for a share key. */
  userId: string | null
  /** The key the first access token of the family was minted from. */
  keyId?: string
  issuedAt: number
  expiresAt: number
  /** Set when the token was rotated; it can never be used again. */
  usedAt?: number
}

/**
 * What consuming a refresh token did: `consumed` (it was valid; it is now used),
 * `reused` (it had already been used; its whole family is now revoked) or `rejected`
 * (unknown, expired, or of a revoked family).
 */
export type RefreshConsumption =
  | { outcome: 'consumed'; token: RefreshTokenRecord }
  | { outcome: 'reused'; token: RefreshTokenRecord }
  | { outcome: 'rejected' }

/** Lifetime of a refresh token: 30 days. */
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000

const REFRESH_PATTERN = /^rt_[A-Za-z0-9_-]{43}$/

/** The refresh token string for 32 random bytes. */
export function formatRefreshToken(secret: Uint8Array): string {
  return `rt_${Buffer.from(secret).toString('base64url')}`
}

/** True for a well-formed refresh token string (`rt_` and 43 base64url characters). */
export function isRefreshTokenString(value: string): boolean {
  return REFRESH_PATTERN.test(value)
}
