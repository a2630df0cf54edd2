import { AuthError } from '../errors'
import type { Rule } from '../permissions/rule'

/**
 * What a key is for: `admin` keys are made by root for a user (`POST /auth/keys/admin`),
 * `self-service` keys by any user for themself (`POST /auth/keys`), `share` keys by share links
 * (no user; their rules are their only authority).
 */
export type ApiKeyKind = 'admin' | 'self-service' | 'share'

/** An API key as stored: never the secret, only its SHA-256 digest. */
export interface ApiKeyRecord {
  /** UUID. */
  keyId: string
  /** First 16 hex digits of the key id; unique; the lookup index. */
  prefix: string
  /** base64url SHA-256 of the secret part of the key string. */
  secretDigest: string
  kind: ApiKeyKind
  /** The holder; `null` for share keys. */
  userId: string | null
  label?: string
  /** Ordered path rules; empty means no restriction. */
  rules: Rule[]
  /** For share keys: the paths the link shares. */
  sharePaths?: string[]
  createdAt: number
  expiresAt: number
  /** Set once, when the key is revoked. */
  revokedAt?: number
}

/** A key in the self-service view of the spec (list output): no secret, no digest. */
export interface KeyView {
  keyId: string
  userId: string | null
  label?: string
  /** Unix milliseconds. */
  expiresAt: number
  /** Unix milliseconds. */
  createdAt: number
  rules: Rule[]
}

/** The answer to creating a self-service key: the only time `key` is shown. */
export interface CreatedKey {
  keyId: string
  /** The plaintext key string, `svc_k_…`. */
  key: string
  userId: string | null
  label?: string
  expiresAt: number
  rules: Rule[]
}

/** A key in the administrative view of the spec (list output): metadata only. */
export interface AdminKeyView {
  keyId: string
  userId: string
  /** ISO 8601. */
  createdAt: string
  isRevoked: boolean
}

/** The answer to creating an administrative key: the only time `apiKey` is shown. */
export interface CreatedAdminKey {
  keyId: string
  /** The plaintext key string, `svc_…`. */
  apiKey: string
  userId: string
  /** ISO 8601. */
  createdAt: string
}

/** Lifetime of a key when none is asked for (spec). */
export const DEFAULT_KEY_EXPIRY_DAYS = 730

/** Longest lifetime a key may have (spec). */
export const MAX_KEY_EXPIRY_DAYS = 3650

/** One day in milliseconds. */
export const DAY_MS = 86_400_000

/** True when the key may still be used at `now`: not revoked and not expired. */
export function isKeyUsable(key: ApiKeyRecord, now: number): boolean {
  return key.revokedAt === undefined && now < key.expiresAt
}

/**
 * Checks a requested lifetime in days: an integer from 1 to 3650; 730 when absent.
 *
 * @throws {AuthError} `INVALID_INPUT`.
 */
export function parseExpiresInDays(value: unknown): number {
  if (value === undefined) return DEFAULT_KEY_EXPIRY_DAYS
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < 1 ||
    value > MAX_KEY_EXPIRY_DAYS
  ) {
    throw new AuthError(
      'INVALID_INPUT',
      `expiresInDays: must be an integer from 1 to ${MAX_KEY_EXPIRY_DAYS}`,
    )
  }
  return value
}

/** The self-service view of a stored key. */
export function toKeyView(key: ApiKeyRecord): KeyView {
  const view: KeyView = {
    keyId: key.keyId,
    userId: key.userId,
    expiresAt: key.expiresAt,
    createdAt: key.createdAt,
    rules: key.rules.map((rule) => ({ ...rule })),
  }
  if (key.label !== undefined) view.label = key.label
  return view
}

/** The administrative view of a stored key with a holder. */
export function toAdminKeyView(key: ApiKeyRecord & { userId: string }): AdminKeyView {
  return {
    keyId: key.keyId,
    userId: key.userId,
    createdAt: new Date(key.createdAt).toISOString(),
    isRevoked: key.revokedAt !== undefined,
  }
}
