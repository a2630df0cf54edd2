import { AuthError } from '../errors'
import { isUuid } from '../internal/uuid'
import { isKeyUsable, parseExpiresInDays } from '../keys/api-key'
import { globForSubtree, isPathPattern } from '../permissions/path-glob'
import { NO_PERMISSIONS, isPermissionString } from '../permissions/permission-flags'
import { isNormalizedPath } from '../shares/share'
import type { Share, ShareSubject } from '../shares/share'
import type { AuthContext } from './auth-context'
import { issueKey } from './key-service'

/** A share request (`POST /files/share`). */
export interface GrantSharesInput {
  paths: readonly string[]
  userIds?: readonly string[]
  groupNames?: readonly string[]
  /** 8-character permission string, granted exactly. */
  permissions: string
}

/** A share link as listed (no secret). */
export interface ShareLinkView {
  keyId: string
  paths: string[]
  permissions: string
  createdAt: number
  expiresAt: number
}

/** The answer to creating a share link: the only time `key` is shown. */
export interface CreatedShareLink {
  keyId: string
  /** The share key string, `svc_…`; its holder acts with the link's permissions only. */
  key: string
  paths: string[]
  permissions: string
  expiresAt: number
}

/** Shares and share links (root only; the server's route table enforces that). */
export interface ShareService {
  /** @throws {AuthError} `INVALID_INPUT`; `NOT_FOUND` for an unknown user or group. */
  grant(input: GrantSharesInput): Promise<Share[]>
  /** Shares on exactly `path`, or all. */
  list(path?: string): Promise<Share[]>
  /** Removes the shares on `path` (of one user or group when given); returns how many. */
  revoke(input: { path: string; userId?: string; groupName?: string }): Promise<number>
  /** Creates a share key (no user) whose rules give `permissions` on each path's subtree. */
  createLink(input: {
    paths: readonly string[]
    permissions: string
    expiresInDays?: number
  }): Promise<CreatedShareLink>
  /** Share links that are not revoked, of one path or all. */
  listLinks(path?: string): Promise<ShareLinkView[]>
  /** @throws {AuthError} `INVALID_INPUT`; `NOT_FOUND` unless `keyId` is a share link. */
  revokeLink(keyId: string): Promise<{ revoked: boolean; keyId: string }>
}

function checkPaths(paths: unknown): string[] {
  if (!Array.isArray(paths) || paths.length === 0 || paths.length > 1000) {
    throw new AuthError('INVALID_INPUT', 'paths: must list 1 to 1000 paths')
  }
  for (const [i, path] of paths.entries()) {
    if (!isNormalizedPath(path)) {
      throw new AuthError('INVALID_INPUT', `paths.${i}: must be an absolute, normalised path`)
    }
  }
  return [...new Set(paths as string[])]
}

function checkPermissions(permissions: unknown): string {
  if (!isPermissionString(permissions) || permissions === NO_PERMISSIONS) {
    throw new AuthError('INVALID_INPUT', 'permissions: must be 8 flags granting something')
  }
  return permissions
}

/** The shares of one `Auth`. */
export function createShareService(ctx: AuthContext): ShareService {
  return {
    async grant(input) {
      const paths = checkPaths(input.paths)
      const permissions = checkPermissions(input.permissions)
      const subjects: ShareSubject[] = []
      for (const userId of input.userIds ?? []) {
        if (!isUuid(userId)) throw new AuthError('INVALID_INPUT', 'userIds: must be UUIDs')
        const id = userId.toLowerCase()
        if ((await ctx.store.getUser(id)) === undefined) {
          throw new AuthError('NOT_FOUND', 'no such user')
        }
        subjects.push({ kind: 'user', userId: id })
      }
      for (const name of input.groupNames ?? []) {
        if ((await ctx.store.getGroup(name)) === undefined) {
          throw new AuthError('NOT_FOUND', 'no such group')
        }
        subjects.push({ kind: 'group', name })
      }
      if (subjects.length === 0) {
        throw new AuthError('INVALID_INPUT', 'a share names at least one user or group')
      }
      const createdAt = ctx.clock.now()
      const shares = paths.flatMap((path) =>
        subjects.map((subject): Share => ({ path, subject, permissions, createdAt })),
      )
      for (const share of shares) await ctx.store.putShare(share)
      ctx.cache.invalidate()
      return shares
    },
    list: (path) => ctx.store.listShares(path === undefined ? {} : { path }),
    async revoke({ path, userId, groupName }) {
      const subject: ShareSubject | undefined =
        userId !== undefined
          ? { kind: 'user', userId: userId.toLowerCase() }
          : groupName !== undefined
            ? { kind: 'group', name: groupName }
            : undefined
      const removed = await ctx.store.deleteShares(path, subject)
      ctx.cache.invalidate()
      return removed
    },
    async createLink(input) {
      const paths = checkPaths(input.paths)
      // The link's rules are globs, which have a shorter limit than paths.
      const tooLong = paths.find((path) => !isPathPattern(globForSubtree(path)))
      if (tooLong !== undefined) {
        throw new AuthError(
          'INVALID_INPUT',
          `paths: ${tooLong.slice(0, 64)}… is too long for a share link (1024 characters at most, escapes included)`,
        )
      }
      const permissions = checkPermissions(input.permissions)
      const { record, key } = await issueKey(ctx, {
        kind: 'share',
        userId: null,
        rules: paths.map((path) => ({ [globForSubtree(path)]: permissions })),
        sharePaths: paths,
        expiresInDays: parseExpiresInDays(input.expiresInDays),
      })
      return { keyId: record.keyId, key, paths, permissions, expiresAt: record.expiresAt }
    },
    async listLinks(path) {
      const keys = await ctx.store.listApiKeys({ userId: null })
      return keys
        .filter((k) => k.kind === 'share' && k.revokedAt === undefined)
        .filter((k) => path === undefined || (k.sharePaths ?? []).includes(path))
        .filter((k) => isKeyUsable(k, ctx.clock.now()))
        .map((k) => ({
          keyId: k.keyId,
          paths: k.sharePaths ?? [],
          permissions: Object.values(k.rules[0] ?? {})[0] ?? NO_PERMISSIONS,
          createdAt: k.createdAt,
          expiresAt: k.expiresAt,
        }))
    },
    async revokeLink(keyId) {
      if (!isUuid(keyId)) throw new AuthError('INVALID_INPUT', 'key id must be a UUID')
      const id = keyId.toLowerCase()
      const key = await ctx.store.getApiKey(id)
      if (key === undefined || key.kind !== 'share')
        throw new AuthError('NOT_FOUND', 'no such share link')
      await ctx.store.revokeApiKey(id, ctx.clock.now())
      ctx.cache.invalidate()
      return { revoked: true, keyId: id }
    },
  }
}
