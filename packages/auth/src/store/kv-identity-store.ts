import { AuthError } from '../errors'
import type { Group } from '../groups/group'
import { createKeyedLock } from '../internal/keyed-lock'
import type { ApiKeyRecord } from '../keys/api-key'
import type { MagicLinkCodeRecord } from '../magic-links/magic-link-code'
import { sameSubject } from '../shares/share'
import type { Share } from '../shares/share'
import type { RefreshTokenRecord } from '../tokens/refresh-token'
import type { SigningKeyRecord } from '../tokens/signing-key'
import type { User } from '../users/user'
import type { IdentityStore } from './identity-store'
import { kvLayout as k } from './kv-layout'
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

/**
 * An {@link IdentityStore} over an ordered key-value store (a LevelDB sublevel on the server).
 * Atomic operations are serialised per record by an in-process lock, then written in one batch,
 * so the `kv` must be owned by this store in this process (LevelDB's own lock guarantees the
 * process part). Key layout: `user/`, `username/`, `email/`, `group/`, `key/`, `keyprefix/`,
 * `rt/`, `rtfam/`, `rtrevoked/`, `ml/`, `signing/`, `rate/`, `share/`, `sharesubj/`.
 *
 * @example
 * const store = createKvIdentityStore(createMemoryKvStore())
 */
export function createKvIdentityStore(kv: KvStore): IdentityStore {
  const lock = createKeyedLock()
  const read = async <T>(key: string): Promise<T | undefined> => {
    const raw = await kv.get(key)
    return raw === undefined ? undefined : (JSON.parse(raw) as T)
  }
  const readAll = async <T>(prefix: string): Promise<T[]> =>
    (await kv.entries(prefix)).map(([, raw]) => JSON.parse(raw) as T)
  const takenBy = async (key: string, owner: string) => {
    const holder = await read<string>(key)
    return holder !== undefined && holder !== owner
  }
  const userIndexes = (user: User) => [
    k.username(user.username),
    ...(user.email === undefined ? [] : [k.email(user.email)]),
  ]
  const checkUserIndexes = async (user: User) => {
    for (const key of userIndexes(user)) {
      if (await takenBy(key, user.userId)) {
        const what = key.startsWith('username/') ? 'username' : 'email'
        throw new AuthError('CONFLICT', `the ${what} is already taken`)
      }
    }
  }

  return {
    createUser: (user) =>
      lock.run('users', async () => {
        if ((await kv.get(k.user(user.userId))) !== undefined) {
          throw new AuthError('CONFLICT', 'the user id is already taken')
        }
        await checkUserIndexes(user)
        await kv.batch([
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
      lock.run('users', async () => {
        const old = await read<User>(k.user(user.userId))
        if (old === undefined) throw new AuthError('NOT_FOUND', 'no such user')
        await checkUserIndexes(user)
        const kept = new Set(userIndexes(user))
        await kv.batch([
          ...userIndexes(old)
            .filter((key) => !kept.has(key))
            .map(del),
          put(k.user(user.userId), user),
          ...userIndexes(user).map((key) => put(key, user.userId)),
        ])
      }),

    createGroup: (group) =>
      lock.run('groups', async () => {
        if ((await kv.get(k.group(group.name))) !== undefined) {
          throw new AuthError('CONFLICT', 'the group name is already taken')
        }
        await kv.batch([put(k.group(group.name), group)])
      }),
    getGroup: (name) => read<Group>(k.group(name)),
    listGroups: () => readAll<Group>(k.groups),
    updateGroup: (group) =>
      lock.run('groups', async () => {
        if ((await kv.get(k.group(group.name))) === undefined) {
          throw new AuthError('NOT_FOUND', 'no such group')
        }
        await kv.batch([put(k.group(group.name), group)])
      }),
    deleteGroup: (name) =>
      lock.run('groups', () =>
        lock.run('shares', async () => {
          if ((await kv.get(k.group(name))) === undefined) return false
          const subject = { kind: 'group', name } as const
          const shares = await readAll<Share>(k.sharesOf(subject))
          await kv.batch([
            del(k.group(name)),
            ...shares.flatMap((s) => [
              del(k.share(s.path, subject)),
              del(k.shareOf(subject, s.path)),
            ]),
          ])
          return true
        }),
      ),

    createApiKey: (key) =>
      lock.run('keys', async () => {
        if (
          (await kv.get(k.key(key.keyId))) !== undefined ||
          (await kv.get(k.keyPrefix(key.prefix))) !== undefined
        ) {
          throw new AuthError('CONFLICT', 'the key id is already taken')
        }
        await kv.batch([put(k.key(key.keyId), key), put(k.keyPrefix(key.prefix), key.keyId)])
      }),
    getApiKey: (keyId) => read<ApiKeyRecord>(k.key(keyId)),
    async findApiKeyByPrefix(prefix) {
      const keyId = await read<string>(k.keyPrefix(prefix))
      return keyId === undefined ? undefined : read<ApiKeyRecord>(k.key(keyId))
    },
    async listApiKeys(filter) {
      const keys = await readAll<ApiKeyRecord>(k.keys)
      return filter === undefined ? keys : keys.filter((key) => key.userId === filter.userId)
    },
    revokeApiKey: (keyId, at) =>
      lock.run(k.key(keyId), async () => {
        const key = await read<ApiKeyRecord>(k.key(keyId))
        if (key === undefined || key.revokedAt !== undefined) return key
        const revoked = { ...key, revokedAt: at }
        await kv.batch([put(k.key(keyId), revoked)])
        return revoked
      }),

    putRefreshToken: (token) =>
      kv.batch([
        put(k.refreshToken(token.digest), token),
        put(k.familyMember(token.familyId, token.digest), null),
      ]),
    consumeRefreshToken: (digest, now) =>
      lock.run(k.refreshToken(digest), async () => {
        const token = await read<RefreshTokenRecord>(k.refreshToken(digest))
        if (token === undefined || now >= token.expiresAt) return { outcome: 'rejected' }
        if ((await kv.get(k.familyRevoked(token.familyId))) !== undefined) {
          return { outcome: 'rejected' }
        }
        if (token.usedAt !== undefined) {
          await kv.batch([put(k.familyRevoked(token.familyId), { revokedAt: now })])
          return { outcome: 'reused', token }
        }
        const used = { ...token, usedAt: now }
        await kv.batch([put(k.refreshToken(digest), used)])
        return { outcome: 'consumed', token: used }
      }),
    revokeRefreshFamily: (familyId, at) =>
      kv.batch([put(k.familyRevoked(familyId), { revokedAt: at })]),

    putMagicLinkCode: (code) => kv.batch([put(k.magicCode(code.digest), code)]),
    consumeMagicLinkCode: (digest, now) =>
      lock.run(k.magicCode(digest), async () => {
        const code = await read<MagicLinkCodeRecord>(k.magicCode(digest))
        if (code === undefined) return undefined
        await kv.batch([del(k.magicCode(digest))])
        return now < code.expiresAt ? code : undefined
      }),

    getSigningKey: () => read<SigningKeyRecord>(k.signingKey),
    putSigningKeyIfAbsent: (key) =>
      lock.run(k.signingKey, async () => {
        const existing = await read<SigningKeyRecord>(k.signingKey)
        if (existing !== undefined) return existing
        await kv.batch([put(k.signingKey, key)])
        return JSON.parse(JSON.stringify(key)) as SigningKeyRecord
      }),

    hitRateLimit: (bucket, { now, windowMs, limit }) =>
      lock.run(k.rateBucket(bucket), async () => {
        const stored = await read<RateBucket>(k.rateBucket(bucket))
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
        await kv.batch([put(k.rateBucket(bucket), { hits, windowMs } satisfies RateBucket)])
        return { allowed: true, remaining: limit - hits.length, retryAfterMs: 0 }
      }),

    putShare: (share) =>
      lock.run('shares', () =>
        kv.batch([
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
      lock.run('shares', async () => {
        const onPath = await readAll<Share>(k.sharesOn(path))
        const shares =
          subject === undefined ? onPath : onPath.filter((s) => sameSubject(s.subject, subject))
        await kv.batch(
          shares.flatMap((s) => [
            del(k.share(s.path, s.subject)),
            del(k.shareOf(s.subject, s.path)),
          ]),
        )
        return shares.length
      }),

    async deleteExpired(now) {
      const ops: KvOperation[] = []
      for (const [key, raw] of await kv.entries(k.refreshTokens)) {
        const token = JSON.parse(raw) as RefreshTokenRecord
        if (token.expiresAt <= now)
          ops.push(del(key), del(k.familyMember(token.familyId, token.digest)))
      }
      for (const [key, raw] of await kv.entries(k.magicCodes)) {
        if ((JSON.parse(raw) as MagicLinkCodeRecord).expiresAt <= now) ops.push(del(key))
      }
      for (const [key, raw] of await kv.entries(k.rateBuckets)) {
        const { hits, windowMs } = JSON.parse(raw) as RateBucket
        if (hits.every((t) => t + windowMs <= now)) ops.push(del(key))
      }
      const gone = new Set(ops.map((op) => op.key))
      for (const [key] of await kv.entries(k.familyRevocations)) {
        const familyId = decodeURIComponent(key.slice(k.familyRevocations.length))
        const members = await kv.entries(k.familyMembers(familyId))
        if (members.every(([member]) => gone.has(member))) ops.push(del(key))
      }
      await kv.batch(ops)
      // Index entries are not records of their own.
      return ops.filter((op) => !op.key.startsWith('rtfam/')).length
    },
  }
}
