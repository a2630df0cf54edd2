import { AuthError, isAuthError } from '../errors'
import { digestSecret, digestsEqual } from '../internal/secret-digest'
import { isUuid } from '../internal/uuid'
import { DAY_MS, isKeyUsable, parseExpiresInDays, toAdminKeyView, toKeyView } from '../keys/api-key'
import type {
  AdminKeyView,
  ApiKeyKind,
  ApiKeyRecord,
  CreatedAdminKey,
  CreatedKey,
  KeyView,
} from '../keys/api-key'
import { formatApiKey, keyPrefix, parseApiKey } from '../keys/api-key-string'
import { parseRules } from '../permissions/rule'
import type { Rule } from '../permissions/rule'
import type { Principal } from '../principal'
import type { AuthContext } from './auth-context'

/** Fields of a self-service key (`POST /auth/keys`). */
export interface CreateKeyInput {
  label?: string
  /** 1 to 3650; 730 when absent. */
  expiresInDays?: number
  /** Ordered path rules; none when absent. */
  rules?: readonly Rule[]
  /** Root only: the holder; the caller when absent. */
  userId?: string
}

/** The answer to revoking a key. */
export interface RevokedKey {
  revoked: boolean
  keyId: string
}

/** API key management, in the administrative and self-service views of the spec. */
export interface KeyService {
  /** Root: a key for `userId` (default: the caller), `svc_…`. */
  createAdmin(caller: Principal, input?: { userId?: string }): Promise<CreatedAdminKey>
  /** Root: every key with a holder, revoked ones included; no secrets. */
  listAdmin(caller: Principal): Promise<AdminKeyView[]>
  /** Root: revokes any key. */
  revokeAdmin(caller: Principal, keyId: string): Promise<RevokedKey>
  /** Any unrestricted caller: a key for themself (root: for anyone), `svc_k_…`. */
  create(caller: Principal, input?: CreateKeyInput): Promise<CreatedKey>
  /** The caller's keys that are not revoked; root sees every user's. */
  list(caller: Principal): Promise<KeyView[]>
  /** Revokes one of the caller's keys; root may revoke any. */
  revoke(caller: Principal, keyId: string): Promise<RevokedKey>
}

/** What {@link issueKey} stores. */
export interface IssueKeyInput {
  kind: ApiKeyKind
  userId: string | null
  label?: string
  rules: Rule[]
  sharePaths?: string[]
  expiresInDays: number
}

const INVALID_KEY = 'invalid API key'
// Compared against when the prefix is unknown, so that case does the same work.
const UNKNOWN_KEY_DIGEST = digestSecret('svcdb: no key has this prefix')

/** A key issued: the record stored and the key string (shown once). */
export interface IssuedKey {
  record: ApiKeyRecord
  key: string
}

/** Creates and stores a key; returns the record and the key string (shown once). */
export async function issueKey(ctx: AuthContext, input: IssueKeyInput): Promise<IssuedKey> {
  const issued = await issueWith(ctx, input, async (record) => {
    await ctx.store.createApiKey(record)
    return true
  })
  if (issued === undefined) throw new Error('a key nothing blocks was not stored')
  return issued
}

/**
 * {@link issueKey}, unless the holder already has a key for which `blocks` is true (checked
 * atomically with the creation, across processes sharing the store): then `undefined`.
 */
export function issueKeyUnless(
  ctx: AuthContext,
  input: IssueKeyInput,
  blocks: (existing: ApiKeyRecord) => boolean,
): Promise<IssuedKey | undefined> {
  return issueWith(ctx, input, (record) => ctx.store.createApiKeyIfNone(record, blocks))
}

async function issueWith(
  ctx: AuthContext,
  input: IssueKeyInput,
  create: (record: ApiKeyRecord) => Promise<boolean>,
): Promise<IssuedKey | undefined> {
  // A prefix holds 60 random bits; a collision is retried with a new id.
  for (let attempt = 0; attempt < 5; attempt++) {
    const keyId = ctx.newId()
    const secret = Buffer.from(ctx.secretBytes()).toString('base64url')
    const now = ctx.clock.now()
    const record: ApiKeyRecord = {
      keyId,
      prefix: keyPrefix(keyId),
      secretDigest: digestSecret(secret),
      kind: input.kind,
      userId: input.userId,
      rules: input.rules,
      createdAt: now,
      expiresAt: now + input.expiresInDays * DAY_MS,
    }
    if (input.label !== undefined) record.label = input.label
    if (input.sharePaths !== undefined) record.sharePaths = input.sharePaths
    try {
      if (!(await create(record))) return undefined
    } catch (err) {
      if (isAuthError(err, 'CONFLICT')) continue
      throw err
    }
    const form = input.kind === 'self-service' ? 'self-service' : 'plain'
    return { record, key: formatApiKey(form, record.prefix, secret) }
  }
  throw new AuthError('CONFLICT', 'could not allocate a key id; try again')
}

/**
 * The usable key a key string names: well-formed, known by its prefix, the right form, the
 * secret's digest equal in constant time, not revoked, not expired, its holder active.
 * `lookup` `cached` reads the key and its holder through the identity cache (a key used as a
 * bearer credential on every request); `store`, for exchanges, reads them fresh.
 *
 * @throws {AuthError} `INVALID_CREDENTIAL`, the same message whatever was wrong.
 */
export async function authenticateKey(
  ctx: AuthContext,
  apiKey: unknown,
  lookup: 'store' | 'cached' = 'store',
): Promise<ApiKeyRecord> {
  const find =
    lookup === 'cached'
      ? { key: ctx.cache.keyByPrefix, user: ctx.cache.user }
      : {
          key: (prefix: string) => ctx.store.findApiKeyByPrefix(prefix),
          user: (userId: string) => ctx.store.getUser(userId),
        }
  const text = typeof apiKey === 'string' ? apiKey.slice(0, 256) : ''
  const parsed = parseApiKey(text)
  const record = parsed === undefined ? undefined : await find.key(parsed.prefix)
  // Hash and compare whatever happened above, so a miss costs what a hit costs.
  const matches = digestsEqual(
    digestSecret(parsed?.secret ?? text),
    record?.secretDigest ?? UNKNOWN_KEY_DIGEST,
  )
  const formMatches =
    record !== undefined && (record.kind === 'self-service') === (parsed?.form === 'self-service')
  if (record === undefined || !matches || !formMatches || !isKeyUsable(record, ctx.clock.now())) {
    throw new AuthError('INVALID_CREDENTIAL', INVALID_KEY)
  }
  if (record.userId !== null) {
    const user = await find.user(record.userId)
    if (user === undefined || !user.isActive) throw new AuthError('INVALID_CREDENTIAL', INVALID_KEY)
  }
  return record
}

/** Refuses callers that are not root with an unrestricted credential. */
export function requireRoot(caller: Principal): void {
  if (!caller.isRoot) throw new AuthError('FORBIDDEN', 'only root may do this')
}

function requireUnrestricted(caller: Principal): asserts caller is Principal & { userId: string } {
  if (caller.scoped || caller.userId === null) {
    throw new AuthError('FORBIDDEN', 'keys can only be managed with an unrestricted credential')
  }
}

function checkKeyId(keyId: string): void {
  if (!isUuid(keyId)) throw new AuthError('INVALID_INPUT', 'key id must be a UUID')
}

async function requireUser(ctx: AuthContext, userId: unknown): Promise<string> {
  if (!isUuid(userId)) throw new AuthError('INVALID_INPUT', 'userId: must be a UUID')
  const id = userId.toLowerCase()
  if ((await ctx.store.getUser(id)) === undefined) throw new AuthError('NOT_FOUND', 'no such user')
  return id
}

function checkLabel(label: unknown): string | undefined {
  if (label === undefined) return undefined
  const printable =
    typeof label === 'string' && [...label].every((ch) => ch >= ' ' && ch !== '\x7f')
  if (!printable || label.length > 200) {
    throw new AuthError('INVALID_INPUT', 'label: must be at most 200 printable characters')
  }
  return label
}

const byCreation = (a: ApiKeyRecord, b: ApiKeyRecord) =>
  a.createdAt - b.createdAt || (a.keyId < b.keyId ? -1 : 1)

/** The key management of one `Auth`. */
export function createKeyService(ctx: AuthContext): KeyService {
  const revoke = async (keyId: string, allowed: (key: ApiKeyRecord) => boolean) => {
    checkKeyId(keyId)
    const id = keyId.toLowerCase()
    const key = await ctx.store.getApiKey(id)
    if (key === undefined || !allowed(key)) throw new AuthError('NOT_FOUND', 'no such key')
    await ctx.store.revokeApiKey(id, ctx.clock.now())
    ctx.cache.invalidate()
    return { revoked: true, keyId: id }
  }
  return {
    async createAdmin(caller, input = {}) {
      requireRoot(caller)
      const userId = await requireUser(ctx, input.userId ?? caller.userId)
      const { record, key } = await issueKey(ctx, {
        kind: 'admin',
        userId,
        rules: [],
        expiresInDays: parseExpiresInDays(undefined),
      })
      return {
        keyId: record.keyId,
        apiKey: key,
        userId,
        createdAt: new Date(record.createdAt).toISOString(),
      }
    },
    async listAdmin(caller) {
      requireRoot(caller)
      const keys = await ctx.store.listApiKeys()
      return keys
        .filter((k): k is ApiKeyRecord & { userId: string } => k.userId !== null)
        .sort(byCreation)
        .map(toAdminKeyView)
    },
    async revokeAdmin(caller, keyId) {
      requireRoot(caller)
      return revoke(keyId, () => true)
    },
    async create(caller, input = {}) {
      requireUnrestricted(caller)
      if (input.userId !== undefined && !caller.isRoot) {
        throw new AuthError('FORBIDDEN', 'only root may create keys for another user')
      }
      const userId =
        input.userId === undefined ? caller.userId : await requireUser(ctx, input.userId)
      const label = checkLabel(input.label)
      const issued = await issueKey(ctx, {
        kind: 'self-service',
        userId,
        ...(label === undefined ? {} : { label }),
        rules: parseRules(input.rules ?? []),
        expiresInDays: parseExpiresInDays(input.expiresInDays),
      })
      const { key, record } = issued
      const { createdAt: _, ...view } = toKeyView(record)
      return { ...view, key }
    },
    async list(caller) {
      requireUnrestricted(caller)
      const keys = await ctx.store.listApiKeys(
        caller.isRoot ? undefined : { userId: caller.userId },
      )
      return keys
        .filter((k) => k.revokedAt === undefined)
        .sort(byCreation)
        .map(toKeyView)
    },
    async revoke(caller, keyId) {
      requireUnrestricted(caller)
      // Another user's key answers as if it did not exist (DESIGN §10).
      return revoke(keyId, (key) => caller.isRoot || key.userId === caller.userId)
    },
  }
}
