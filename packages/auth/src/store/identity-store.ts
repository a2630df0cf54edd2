import type { Group } from '../groups/group'
import type { ApiKeyRecord } from '../keys/api-key'
import type { MagicLinkCodeRecord } from '../magic-links/magic-link-code'
import type { Share, ShareSubject } from '../shares/share'
import type { RefreshConsumption, RefreshTokenRecord } from '../tokens/refresh-token'
import type { SigningKeyRecord } from '../tokens/signing-key'
import type { User } from '../users/user'

/** A sliding-window rate limit: at most `limit` hits within `windowMs` before `now`. */
export interface RateLimitPolicy {
  now: number
  windowMs: number
  limit: number
}

/** The outcome of a rate-limited hit. */
export interface RateLimitResult {
  /** False when the window was full; the hit was then not counted. */
  allowed: boolean
  /** Hits left in the window after this one. */
  remaining: number
  /** When refused: milliseconds until the oldest hit leaves the window; otherwise 0. */
  retryAfterMs: number
}

/** Which shares to list; all of them when empty. */
export interface ShareQuery {
  /** Shares on exactly this path. */
  path?: string
  /** Shares granted to any of these subjects. */
  subjects?: readonly ShareSubject[]
}

/**
 * The persistence port of identity: users, groups, API keys, refresh tokens, magic-link
 * codes, the signing key, rate-limit buckets and shares. Records go in and come out as plain
 * data; callers never get a reference into the store.
 *
 * Every implementation runs `runIdentityStoreConformance` from `@svcdb/auth/testing`. The
 * single-use operations (`consumeRefreshToken`, `consumeMagicLinkCode`), `hitRateLimit`,
 * `putSigningKeyIfAbsent`, `createApiKeyIfNone` and the uniqueness checks must be atomic: of
 * concurrent callers, exactly one wins; a store shared by several processes must keep that
 * across them. `createKvIdentityStore` implements all of it over any ordered key-value store
 * with atomic (and, to be shared, guarded) batches.
 */
export interface IdentityStore {
  /** @throws {AuthError} `CONFLICT` when the id, username or email is taken. */
  createUser(user: User): Promise<void>
  getUser(userId: string): Promise<User | undefined>
  /** Case-insensitive. */
  findUserByEmail(email: string): Promise<User | undefined>
  /** Every user, by id. */
  listUsers(): Promise<User[]>
  /**
   * Replaces the user with the same id.
   *
   * @throws {AuthError} `NOT_FOUND`; `CONFLICT` when the username or email belongs to another.
   */
  updateUser(user: User): Promise<void>

  /** @throws {AuthError} `CONFLICT` when the name is taken. */
  createGroup(group: Group): Promise<void>
  getGroup(name: string): Promise<Group | undefined>
  /** Every group, by name. */
  listGroups(): Promise<Group[]>
  /** @throws {AuthError} `NOT_FOUND`. */
  updateGroup(group: Group): Promise<void>
  /** Deletes the group and every share granted to it; false when there was no such group. */
  deleteGroup(name: string): Promise<boolean>

  /** @throws {AuthError} `CONFLICT` when the key id or its prefix is taken. */
  createApiKey(key: ApiKeyRecord): Promise<void>
  /**
   * Creates `key` unless its holder already has a key for which `blocks` is true (how the
   * first root key is minted once, whichever process gets there first). Atomic with every
   * other key creation. Returns whether it created the key.
   *
   * @throws {AuthError} `CONFLICT` when the key id or its prefix is taken.
   */
  createApiKeyIfNone(
    key: ApiKeyRecord,
    blocks: (existing: ApiKeyRecord) => boolean,
  ): Promise<boolean>
  getApiKey(keyId: string): Promise<ApiKeyRecord | undefined>
  /** Direct lookup by the 16-hex prefix of the key string; never a scan. */
  findApiKeyByPrefix(prefix: string): Promise<ApiKeyRecord | undefined>
  /** Every key, or those of one holder (`null`: share keys), by key id. */
  listApiKeys(filter?: { userId: string | null }): Promise<ApiKeyRecord[]>
  /**
   * Marks the key revoked at `at` unless it already is (the first time is kept).
   * Returns the record as it now stands, or `undefined` when there is no such key.
   */
  revokeApiKey(keyId: string, at: number): Promise<ApiKeyRecord | undefined>

  putRefreshToken(token: RefreshTokenRecord): Promise<void>
  /**
   * Atomically uses the token with this digest: `consumed` once; `reused` for a token already
   * used, which also revokes its family; `rejected` when unknown, expired at `now`, or of a
   * revoked family (tokens added to a family after its revocation included).
   */
  consumeRefreshToken(digest: string, now: number): Promise<RefreshConsumption>
  /** Revokes every token of a family, present and future. */
  revokeRefreshFamily(familyId: string, at: number): Promise<void>

  putMagicLinkCode(code: MagicLinkCodeRecord): Promise<void>
  /** Atomically removes the code and returns it, unless unknown or expired at `now`. */
  consumeMagicLinkCode(digest: string, now: number): Promise<MagicLinkCodeRecord | undefined>

  getSigningKey(): Promise<SigningKeyRecord | undefined>
  /** Stores `key` unless a signing key exists; returns the one stored, whichever it is. */
  putSigningKeyIfAbsent(key: SigningKeyRecord): Promise<SigningKeyRecord>

  /** Atomically counts a hit in the named bucket unless its window is full. */
  hitRateLimit(bucket: string, policy: RateLimitPolicy): Promise<RateLimitResult>

  /** Stores a share, replacing the share of the same subject on the same path. */
  putShare(share: Share): Promise<void>
  /** Shares matching the query, by path. */
  listShares(query?: ShareQuery): Promise<Share[]>
  /** Deletes the shares on `path` (of one subject when given); returns how many. */
  deleteShares(path: string, subject?: ShareSubject): Promise<number>

  /**
   * Removes refresh tokens, magic-link codes and rate-limit hits that expired before `now`;
   * returns how many records went.
   */
  deleteExpired(now: number): Promise<number>

  /**
   * A value that moves with every write of users, groups, keys or shares, by any process
   * sharing the store (`undefined` before the first). Never returns to a value it had, so a
   * reader that sees it differ knows its cached lookups may be stale.
   */
  changeStamp(): Promise<string | undefined>
}
