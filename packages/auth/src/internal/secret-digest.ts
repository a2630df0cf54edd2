import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * The SHA-256 digest of a secret, base64url. Secrets here are 256 random bits, so a fast hash
 * is enough: there is nothing to brute-force.
 */
export function digestSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url')
}

/**
 * Compares two digests in time independent of where they differ. Inputs of different length
 * (never two real digests) compare against themselves first so the work stays the same.
 */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  if (left.length !== right.length) {
    timingSafeEqual(left, left)
    return false
  }
  return timingSafeEqual(left, right)
}
