/** A magic-link code as stored: the digest of the code, never the code itself. */
export interface MagicLinkCodeRecord {
  /** base64url SHA-256 of the code. */
  digest: string
  userId: string
  createdAt: number
  expiresAt: number
}

/** Lifetime of a magic-link code: 15 minutes. */
export const MAGIC_LINK_TTL_MS = 15 * 60_000

/** Magic links one email address may request per window. */
export const MAGIC_LINK_RATE_LIMIT = 5

/** The window of {@link MAGIC_LINK_RATE_LIMIT}: 15 minutes. */
export const MAGIC_LINK_RATE_WINDOW_MS = 15 * 60_000

const CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** The code for 32 random bytes: 43 base64url characters. */
export function formatMagicLinkCode(secret: Uint8Array): string {
  return Buffer.from(secret).toString('base64url')
}

/** True for a well-formed code. */
export function isMagicLinkCodeString(value: string): boolean {
  return CODE_PATTERN.test(value)
}
