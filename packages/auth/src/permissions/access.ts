import { AuthError } from '../errors'
import type { Group } from '../groups/group'
import type { Principal } from '../principal'
import { leadsToShare, shareCovers } from '../shares/share'
import type { Share } from '../shares/share'
import { compilePathGlob, normalizeTargetPath } from './path-glob'
import type { PathGlob } from './path-glob'
import {
  FULL_MASK,
  GROUP_MASK,
  TRAVERSE_MASK,
  permissionMask,
  permissionString,
  permits,
} from './permission-flags'
import type { Operation } from './permission-flags'
import { ruleEntry } from './rule'
import type { CompiledRules } from './rules-evaluator'

/** How a denial is answered: 404 for scoped keys (spec rule 8), 403 otherwise. */
export type DenyAs = 'not_found' | 'forbidden'

/** The permissions of one caller on one path. */
export interface PermissionDecision {
  /** 8-character permission string (`effective_permissions`). */
  permissions: string
  /** How to answer when the operation needed is not in `permissions`. */
  denyAs: DenyAs
}

/** A listing entry the caller may see, with its `effective_permissions`. */
export interface VisibleItem<T> {
  item: T
  effectivePermissions: string
}

/**
 * Everything one caller may do, resolved once per request and asked for many paths: one
 * evaluator serves every route, listings and the event stream alike.
 */
export interface Access {
  readonly principal: Principal
  /** True when a denial must look like absence (404) and listings carry permissions. */
  readonly scoped: boolean
  /** The permission string on `path`. */
  permissions(path: string): string
  /** The permissions on `path` together with how to answer a denial. */
  decide(path: string): PermissionDecision
  allows(path: string, operation: Operation): boolean
  /**
   * Throws unless `operation` is allowed on `path`.
   *
   * @throws {AuthError} `NOT_FOUND` for a scoped caller (the path must look absent),
   * `FORBIDDEN` otherwise.
   */
  check(path: string, operation: Operation): void
  /**
   * The permission string every path strictly below `path` has, when no rule, group glob or
   * share can tell them apart; `undefined` when some could (the caller must then check each
   * path below). Recursive operations on a directory (copy, move, delete) use it so that an
   * allowed ancestor never carries a denied descendant along.
   */
  permissionsBelow(path: string): string | undefined
  /**
   * True when the caller may create or update some path: its own grants (root, a group, a
   * share) and, for a key, some rule, grant `c` or `u`. Uploads of chunks need it, so that a
   * read-only credential can neither store bytes nor probe what is stored.
   */
  readonly mayWriteSomewhere: boolean
  /**
   * The items the caller may see (any permission at all), in order, each with its
   * effective permissions; the others are silently left out.
   */
  visible<T>(items: Iterable<T>, pathOf: (item: T) => string): Array<VisibleItem<T>>
}

/** What a non-root user holds by themself: the groups they belong to and their shares. */
export interface Grants {
  groups: readonly Group[]
  shares: readonly Share[]
}

interface CompiledGroup {
  allow: PathGlob | undefined
  deny: PathGlob | undefined
}

const compileOptional = (pattern: string) => (pattern === '' ? undefined : compilePathGlob(pattern))

/**
 * The caller's own permissions on a path: everything (`'all'`, for the root user and share
 * keys), or `crudli--` where a member group allows and does not deny, plus the exact flags of
 * shares covering the path, plus read and list on the directories leading to any of those.
 */
export function ownPermissionsOf(grants: Grants | 'all'): (path: string) => number {
  if (grants === 'all') return () => FULL_MASK
  const groups: CompiledGroup[] = grants.groups.map((g) => ({
    allow: compileOptional(g.defaultAllow),
    deny: compileOptional(g.defaultDeny),
  }))
  const shares = grants.shares.map((s) => ({ path: s.path, mask: permissionMask(s.permissions) }))
  return (path) => {
    let mask = 0
    let leads = false
    for (const { allow, deny } of groups) {
      if (allow === undefined || deny?.matches(path) === true) continue
      if (allow.matches(path)) mask |= GROUP_MASK
      else if (!leads && allow.leadsTo(path)) leads = true
    }
    for (const share of shares) {
      if (shareCovers(share.path, path)) mask |= share.mask
      else if (!leads && share.mask !== 0 && leadsToShare(share.path, path)) leads = true
    }
    return leads ? mask | TRAVERSE_MASK : mask
  }
}

/** True when the caller's own grants treat every path strictly below `path` alike. */
export function ownUniformBelow(grants: Grants | 'all'): (path: string) => boolean {
  if (grants === 'all') return () => true
  const globs = grants.groups.flatMap((g) =>
    [g.defaultAllow, g.defaultDeny].filter((p) => p !== '').map((p) => compilePathGlob(p)),
  )
  const sharePaths = grants.shares.map((s) => s.path)
  return (path) =>
    globs.every((glob) => !glob.leadsTo(path) || glob.coversBelow(path)) &&
    sharePaths.every((share) => shareCovers(share, path) || !leadsToShare(share, path))
}

/** Builds the {@link Access} of `principal` from its own grants and its key's rules. */
export function createAccess(
  principal: Principal,
  grants: Grants | 'all',
  rules: CompiledRules,
): Access {
  const own = ownPermissionsOf(principal.userId === null ? 'all' : grants)
  const ownUniform = ownUniformBelow(principal.userId === null ? 'all' : grants)
  // A share key with no rules would otherwise hold everything: it holds nothing.
  const shareKeyWithoutRules = principal.userId === null && !rules.scoped
  const maskOf = (path: string) => (shareKeyWithoutRules ? 0 : rules.evaluateMask(path, own(path)))
  const denyAs: DenyAs = principal.scoped ? 'not_found' : 'forbidden'
  const WRITE_MASK = permissionMask('cu------')
  const ownWrites =
    principal.userId === null ||
    grants === 'all' ||
    grants.groups.some((g) => g.defaultAllow !== '') ||
    grants.shares.some((s) => (permissionMask(s.permissions) & WRITE_MASK) !== 0)
  const rulesWrite =
    !rules.scoped ||
    rules.rules.some((rule) => (permissionMask(ruleEntry(rule)[1]) & WRITE_MASK) !== 0)
  const permissions = (path: string) => permissionString(maskOf(normalizeTargetPath(path)))
  return {
    principal,
    scoped: principal.scoped,
    permissions,
    decide: (path) => ({ permissions: permissions(path), denyAs }),
    allows: (path, operation) => permits(permissions(path), operation),
    check(path, operation) {
      if (permits(permissions(path), operation)) return
      if (denyAs === 'not_found') throw new AuthError('NOT_FOUND', `not found: ${path}`)
      throw new AuthError('FORBIDDEN', `${operation} is not permitted on ${path}`)
    },
    mayWriteSomewhere: !shareKeyWithoutRules && ownWrites && rulesWrite,
    permissionsBelow(path) {
      const target = normalizeTargetPath(path)
      if (!ownUniform(target) || (rules.scoped && !rules.uniformBelow(target))) return undefined
      // Every path below is treated alike, so any child name stands for all of them.
      return permissionString(maskOf(target === '/' ? '/x' : `${target}/x`))
    },
    visible<T>(items: Iterable<T>, pathOf: (item: T) => string) {
      const out: Array<VisibleItem<T>> = []
      for (const item of items) {
        const mask = maskOf(normalizeTargetPath(pathOf(item)))
        if (mask !== 0) out.push({ item, effectivePermissions: permissionString(mask) })
      }
      return out
    },
  }
}
