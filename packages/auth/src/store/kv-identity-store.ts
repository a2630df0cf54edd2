import { AuthError } from '../errors'
import type { Group } from '../groups/group'
import type { ApiKeyRecord } from '../keys/api-key'
import type { MagicLinkCodeRecord } from '../magic-links/magic-link-code'
import { sameSubject } from '../shares/share'
import type { Share } from '../shares/share'
import type { RefreshTokenRecord } from '../tokens/refresh-token'
import type { SigningKeyRecord } from '../tokens/signing-key'
import type { User } from '../users/user'
import type { IdentityStore } from './identity-store'
import { kvLayout as k } from './kv-layout'
import { createKvSections } from './kv-sections'
import type { KvSection, KvSectionSpec } from './kv-sections'
import type { KvOperation, KvStore } from './kv-store'

interface RateBucket {
  hits: number[]
  windowMs: number
}

const put = (key: string, value: unknown): KvOperation => ({
  type: 'put',
  key,
  value: JSON.stringify(value),
})
const del = (key: string): KvOperation => ({ type: 'del', key })
const parse = <T>(raw: string | undefined): T | undefined =>
  raw === undefined ? undefined : (JSON.parse(raw) as T)

// How the atomic operations are isolated. Sections that scan a prefix (shares of a group, keys
// of a holder) also take a version, which every writer of that prefix bumps.
const USERS: KvSectionSpec = { locks: ['users'], changesDirectory: true }
const GROUPS: KvSectionSpec = { locks: ['groups'], changesDirectory: true }
const KEYS: KvSectionSpec = { locks: ['keys'], versions: ['keys'], changesDirectory: true }
const SHARES: KvSectionSpec = { locks: ['shares'], versions: ['shares'], changesDirectory: true }
const GROUPS_AND_SHARES: KvSectionSpec = {
  locks: ['groups', 'shares'],
  versions: ['shares'],
  changesDirectory: true,
}
const record = (key: string, changesDirectory = false): KvSectionSpec => ({
  locks: [key],
  changesDirectory,
})

/**
 * An {@link IdentityStore} over an ordered key-value store (the database's system store on the
 * server). Every atomic operation runs under an in-process lock and, when the `kv` honours
 * guards (`isConflict`), writes as a compare-and-set on what it read, re-run on a conflict:
 * then any number of processes may share the `kv`. Without guards the `kv` must be owned by
 * this store in this process. Key layout: `user/`, `username/`, `email/`, `group/`, `key/`,
 * `keyprefix/`, `rt/`, `rtfam/`, `rtrevoked/`, `ml/`, `signing/`, `rate/`, `share/`,
 * `sharesubj/`, plus `lockver/` (section versions) and `generation` (the change stamp).
 *
 * @example
 * const store = createKvIdentityStore(createMemoryKvStore())
 */
export function createKvIdentityStore(kv: KvStore): IdentityStore {
  const sections = createKvSections(kv)
  const read = async <T>(key: string): Promise<T | undefined> => parse<T>(await kv.get(key))
  const readAll = async <T>(prefix: string): Promise<T[]> =>
    (await kv.entries(prefix)).map(([, raw]) => JSON.parse(raw) as T)
  const userIndexes = (user: User) => [
    k.username(user.username),
    ...(user.email === undefined ? [] : [k.email(user.email)]),
  ]
  const checkUserIndexes = async (s: KvSection, user: User) => {
    for (const key of userIndexes(user)) {
      const holder = parse<string>(await s.get(key))
      if (holder !== undefined && holder !== user.userId) {
        const what = key.startsWith('username/') ? 'username' : 'email'
        throw new AuthError('CONFLICT', `the ${what} is already taken`)
      }
    }
  }
  const insertKey = async (s: KvSection, key: ApiKeyRecord) => {
    if (
      (await s.get(k.key(key.keyId))) !== undefined ||
      (await s.get(k.keyPrefix(key.prefix))) !== undefined
    ) {
      throw new AuthError('CONFLICT', 'the key id is already taken')
    }
    await s.write([put(k.key(key.keyId), key), put(k.keyPrefix(key.prefix), key.keyId)])
  }
  const listKeys = async (filter?: { userId: string | null }) => {
    const keys = await readAll<ApiKeyRecord>(k.keys)
    return filter === undefined ? keys : keys.filter((key) => key.userId === filter.userId)
  }

  return {
    createUser: (user) =>
      sections.run(USERS, async (s) => {
        if ((await s.get(k.user(user.userId))) !== undefined) {
          throw new AuthError('CONFLICT', 'the user id is already taken')
        }
        await checkUserIndexes(s, user)
        await s.write([
          put(k.user(user.userId), user),
          ...userIndexes(user).map((key) => put(key, user.userId)),
        ])
      }),
    getUser: (userId) => read<User>(k.user(userId)),
    async findUserByEmail(email) {
      const userId = await read<string>(k.email(email))
      return userId === undefined ? undefined : read<User>(k.user(userId))
    },
    listUsers: () => readAll<User>(k.users),
    updateUser: (user) =>
      sections.run(USERS, async (s) => {
        const old = parse<User>(await s.get(k.user(user.userId)))
        if (old === undefined) throw new AuthError('NOT_FOUND', 'no such user')
        await checkUserIndexes(s, user)
        const kept = new Set(userIndexes(user))
        await s.write([
          ...userIndexes(old)
            .filter((key) => !kept.has(key))
            .map(del),
          put(k.user(user.userId), user),
          ...userIndexes(user).map((key) => put(key, user.userId)),
        ])
      }),

    createGroup: (group) =>
      sections.run(GROUPS, async (s) => {
        if ((await s.get(k.group(group.name))) !== undefined) {
          throw new AuthError('CONFLICT', 'the group name is already taken')
        }
        await s.write([put(k.group(group.name), group)])
      }),
    getGroup: (name) => read<Group>(k.group(name)),
    listGroups: () => readAll<Group>(k.groups),
    updateGroup: (group) =>
      sections.run(GROUPS, async (s) => {
        if ((await s.get(k.group(group.name))) === undefined) {
          throw new AuthError('NOT_FOUND', 'no such group')
        }
        await s.write([put(k.group(group.name), group)])
      }),
    deleteGroup: (name) =>
      sections.run(GROUPS_AND_SHARES, async (s) => {
        if ((await s.get(k.group(name))) === undefined) return false
        const subject = { kind: 'group', name } as const
        const shares = await readAll<Share>(k.sharesOf(subject))
        await s.write([
          del(k.group(name)),
          ...shares.flatMap((sh) => [
            del(k.share(sh.path, subject)),
            del(k.shareOf(subject, sh.path)),
          ]),
        ])
        return true
      }),

    createApiKey: (key) => sections.run(KEYS, (s) => insertKey(s, key)),
    createApiKeyIfNone: (key, blocks) =>
      sections.run(KEYS, async (s) => {
        if ((await listKeys({ userId: key.userId })).some(blocks)) return false
        await insertKey(s, key)
        return true
      }),
    getApiKey: (keyId) => read<ApiKeyRecord>(k.key(keyId)),
    async findApiKeyByPrefix(prefix) {
      const keyId = await read<string>(k.keyPrefix(prefix))
      return keyId === undefined ? undefined : read<ApiKeyRecord>(k.key(keyId))
    },
    listApiKeys: listKeys,
    revokeApiKey: (keyId, at) =>
      sections.run(record(k.key(keyId), true), async (s) => {
        const key = parse<ApiKeyRecord>(await s.get(k.key(keyId)))
        if (key === undefined || key.revokedAt !== undefined) return key
        const revoked = { ...key, revokedAt: at }
        await s.write([put(k.key(keyId), revoked)])
        return revoked
      }),

    // A new digest: nobody else can be writing it.
    putRefreshToken: (token) =>
      kv.batch([
        put(k.refreshToken(token.digest), token),
        put(k.familyMember(token.familyId, token.digest), null),
      ]),
    consumeRefreshToken: (digest, now) =>
      sections.run(record(k.refreshToken(digest)), async (s) => {
        const token = parse<RefreshTokenRecord>(await s.get(k.refreshToken(digest)))
        if (token === undefined || now >= token.expiresAt) return { outcome: 'rejected' }
        if ((await s.get(k.familyRevoked(token.familyId))) !== undefined) {
          return { outcome: 'rejected' }
        }
        if (token.usedAt !== undefined) {
          await s.write([put(k.familyRevoked(token.familyId), { revokedAt: now })])
          return { outcome: 'reused', token }
        }
        const used = { ...token, usedAt: now }
        await s.write([put(k.refreshToken(digest), used)])
        return { outcome: 'consumed', token: used }
      }),
    revokeRefreshFamily: (familyId, at) =>
      kv.batch([put(k.familyRevoked(familyId), { revokedAt: at })]),

    putMagicLinkCode: (code) => kv.batch([put(k.magicCode(code.digest), code)]),
    consumeMagicLinkCode: (digest, now) =>
      sections.run(record(k.magicCode(digest)), async (s) => {
        const code = parse<MagicLinkCodeRecord>(await s.get(k.magicCode(digest)))
        if (code === undefined) return undefined
        await s.write([del(k.magicCode(digest))])
        return now < code.expiresAt ? code : undefined
      }),

    getSigningKey: () => read<SigningKeyRecord>(k.signingKey),
    putSigningKeyIfAbsent: (key) =>
      sections.run(record(k.signingKey), async (s) => {
        const existing = parse<SigningKeyRecord>(await s.get(k.signingKey))
        if (existing !== undefined) return existing
        await s.write([put(k.signingKey, key)])
        return JSON.parse(JSON.stringify(key)) as SigningKeyRecord
      }),

    hitRateLimit: (bucket, { now, windowMs, limit }) =>
      sections.run(record(k.rateBucket(bucket)), async (s) => {
        const stored = parse<RateBucket>(await s.get(k.rateBucket(bucket)))
        const hits = (stored?.hits ?? []).filter((t) => t > now - windowMs)
        if (hits.length >= limit) {
          const oldest = hits[hits.length - limit] ?? now
          return {
            allowed: false,
            remaining: 0,
            retryAfterMs: Math.max(1, oldest + windowMs - now),
          }
        }
        hits.push(now)
        await s.write([put(k.rateBucket(bucket), { hits, windowMs } satisfies RateBucket)])
        return { allowed: true, remaining: limit - hits.length, retryAfterMs: 0 }
      }),

    putShare: (share) =>
      sections.run(SHARES, (s) =>
        s.write([
          put(k.share(share.path, share.subject), share),
          put(k.shareOf(share.subject, share.path), share),
        ]),
      ),
    async listShares(query = {}) {
      const { path, subjects } = query
      if (subjects !== undefined) {
        const lists = await Promise.all(subjects.map((s) => readAll<Share>(k.sharesOf(s))))
        const found = lists.flat().filter((s) => path === undefined || s.path === path)
        return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      }
      return readAll<Share>(path === undefined ? k.shares : k.sharesOn(path))
    },
    deleteShares: (path, subject) =>
      sections.run(SHARES, async (s) => {
        const onPath = await readAll<Share>(k.sharesOn(path))
        const shares =
          subject === undefined ? onPath : onPath.filter((sh) => sameSubject(sh.subject, subject))
        await s.write(
          shares.flatMap((sh) => [
            del(k.share(sh.path, sh.subject)),
            del(k.shareOf(sh.subject, sh.path)),
          ]),
        )
        return shares.length
      }),

    // Guarded on each record it drops, so a hit or a use landing meanwhile is not lost.
    deleteExpired: (now) =>
      sections.run({ locks: [] }, async (s) => {
        const ops: KvOperation[] = []
        const drop = (key: string, raw: string) => {
          s.expect(key, raw)
          ops.push(del(key))
        }
        for (const [key, raw] of await kv.entries(k.refreshTokens)) {
          const token = JSON.parse(raw) as RefreshTokenRecord
          if (token.expiresAt <= now) {
            drop(key, raw)
            ops.push(del(k.familyMember(token.familyId, token.digest)))
          }
        }
        for (const [key, raw] of await kv.entries(k.magicCodes)) {
          if ((JSON.parse(raw) as MagicLinkCodeRecord).expiresAt <= now) drop(key, raw)
        }
        for (const [key, raw] of await kv.entries(k.rateBuckets)) {
          const { hits, windowMs } = JSON.parse(raw) as RateBucket
          if (hits.every((t) => t + windowMs <= now)) drop(key, raw)
        }
        const gone = new Set(ops.map((op) => op.key))
        for (const [key] of await kv.entries(k.familyRevocations)) {
          const familyId = decodeURIComponent(key.slice(k.familyRevocations.length))
          const members = await kv.entries(k.familyMembers(familyId))
          if (members.every(([member]) => gone.has(member))) ops.push(del(key))
        }
        if (ops.length > 0) await s.write(ops)
        // Index entries are not records of their own.
        return ops.filter((op) => !op.key.startsWith('rtfam/')).length
      }),

    changeStamp: () => sections.changeStamp(),
  }
}
