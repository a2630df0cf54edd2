import { isAuthError } from '../errors'
import { isKeyUsable, parseExpiresInDays } from '../keys/api-key'
import type { ApiKeyRecord } from '../keys/api-key'
import { ROOT_USER_ID } from '../users/user'
import type { AuthContext } from './auth-context'
import { issueKey, issueKeyUnless } from './key-service'
import type { IssueKeyInput } from './key-service'

/** The outcome of `Auth.resetRootKey`. */
export interface ResetRootKeyResult {
  /** The new root API key (`svc_…`): print it once, it is never shown again. */
  rootApiKey: string
  /** Ids of the root user's keys revoked by `revokeOthers`; empty without it. */
  revokedKeyIds: string[]
}

/** Options of `Auth.resetRootKey`. */
export interface ResetRootKeyOptions {
  /** Also revoke every other key the root user holds (a key that may have leaked). */
  revokeOthers?: boolean
}

/** The signing key and the root user, created when absent; mints nothing a caller must print. */
export async function prepareIdentity(ctx: AuthContext): Promise<void> {
  await ctx.codec()
  if ((await ctx.store.getUser(ROOT_USER_ID)) !== undefined) return
  const now = ctx.clock.now()
  try {
    await ctx.store.createUser({
      userId: ROOT_USER_ID,
      username: 'root',
      isActive: true,
      tags: [],
      createdAt: now,
      updatedAt: now,
    })
  } catch (err) {
    // Another node sharing the store created it first.
    if (!isAuthError(err, 'CONFLICT') || (await ctx.store.getUser(ROOT_USER_ID)) === undefined)
      throw err
  }
}

const rootKeyInput = (): IssueKeyInput => ({
  kind: 'admin',
  userId: ROOT_USER_ID,
  rules: [],
  expiresInDays: parseExpiresInDays(undefined),
})

const mintRootKey = async (ctx: AuthContext) => issueKey(ctx, rootKeyInput())

/**
 * A new root key when the root user holds no unrestricted, usable one; else `undefined`.
 * The check and the creation are one atomic step of the store, so of nodes starting together
 * on an empty shared database exactly one mints (and prints) the key.
 */
export async function mintFirstRootKey(ctx: AuthContext): Promise<string | undefined> {
  const now = ctx.clock.now()
  const usable = (key: ApiKeyRecord) => key.rules.length === 0 && isKeyUsable(key, now)
  return (await issueKeyUnless(ctx, rootKeyInput(), usable))?.key
}

/**
 * Mints a new root key whatever exists, then, with `revokeOthers`, revokes every other key of
 * the root user. The new key is stored first, so a crash in between never leaves root locked out.
 */
export async function resetRootKey(
  ctx: AuthContext,
  options: ResetRootKeyOptions = {},
): Promise<ResetRootKeyResult> {
  await prepareIdentity(ctx)
  const { record, key } = await mintRootKey(ctx)
  const revokedKeyIds: string[] = []
  if (options.revokeOthers === true) {
    const now = ctx.clock.now()
    for (const other of await ctx.store.listApiKeys({ userId: ROOT_USER_ID })) {
      if (other.keyId === record.keyId || other.revokedAt !== undefined) continue
      await ctx.store.revokeApiKey(other.keyId, now)
      revokedKeyIds.push(other.keyId)
    }
  }
  ctx.cache.invalidate()
  return { rootApiKey: key, revokedKeyIds }
}
