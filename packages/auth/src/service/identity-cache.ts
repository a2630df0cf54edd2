import type { Group } from '../groups/group'
import { isGroupMember } from '../groups/group-membership'
import type { ApiKeyRecord } from '../keys/api-key'
import type { Grants } from '../permissions/access'
import { compilePathGlob } from '../permissions/path-glob'
import type { Rule } from '../permissions/rule'
import { createDenyingEvaluator, createRulesEvaluator } from '../permissions/rules-evaluator'
import type { CompiledRules } from '../permissions/rules-evaluator'
import type { ShareSubject } from '../shares/share'
import type { IdentityStore } from '../store/identity-store'
import type { User } from '../users/user'

/**
 * Short-lived lookups behind every authenticated request: keys, users, a user's grants and
 * compiled rules. Any change made through this library clears it at once; `ttlMs` bounds how
 * long a change made elsewhere (another process) can go unseen.
 */
export interface IdentityCache {
  key(keyId: string): Promise<ApiKeyRecord | undefined>
  /** The key whose string starts with `prefix` (see `keyPrefix`); misses are not remembered. */
  keyByPrefix(prefix: string): Promise<ApiKeyRecord | undefined>
  user(userId: string): Promise<User | undefined>
  /** The groups `user` belongs to and the shares granted to it or to them. */
  grants(user: User): Promise<Grants>
  /**
   * The compiled form of a key's rules (rules never change after creation). Never throws:
   * stored rules that cannot be compiled deny every path.
   */
  rules(rules: readonly Rule[]): CompiledRules
  /** The estimated bytes the compiled rules kept hold (at most `rulesCacheBytes`). */
  compiledRulesBytes(): number
  /** Forgets every cached lookup. */
  invalidate(): void
}

const MAX_ENTRIES = 10_000

/** Default bound of the compiled-rules cache: 64 MiB, estimated. */
export const DEFAULT_RULES_CACHE_BYTES = 64 * 1024 * 1024

/**
 * An {@link IdentityCache} over `store`; `now` reads the clock. Compiled rules are kept
 * least recently used first out, within `rulesCacheBytes`.
 */
export function createIdentityCache(
  store: IdentityStore,
  now: () => number,
  ttlMs: number,
  rulesCacheBytes = DEFAULT_RULES_CACHE_BYTES,
): IdentityCache {
  const entries = new Map<string, { at: number; value: Promise<unknown> }>()
  // In least recently used order: a hit moves to the end.
  const compiled = new Map<string, { rules: CompiledRules; bytes: number }>()
  let compiledBytes = 0
  const evictOldest = () => {
    const [id, oldest] = compiled.entries().next().value as [string, { bytes: number }]
    compiled.delete(id)
    compiledBytes -= oldest.bytes
  }
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = entries.get(key)
    if (hit !== undefined && now() - hit.at < ttlMs) return hit.value as Promise<T>
    if (entries.size >= MAX_ENTRIES) entries.clear()
    const value = load()
    entries.set(key, { at: now(), value })
    // A failed lookup is not remembered.
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key)
    })
    return value
  }
  const groups = () => cached('groups', () => store.listGroups())
  return {
    key: (keyId) => cached(`key:${keyId}`, () => store.getApiKey(keyId)),
    async keyByPrefix(prefix) {
      const id = `prefix:${prefix}`
      const record = await cached(id, () => store.findApiKeyByPrefix(prefix))
      // Guessed prefixes must not fill the cache, nor outlive the key they would name.
      if (record === undefined) entries.delete(id)
      return record
    },
    user: (userId) => cached(`user:${userId}`, () => store.getUser(userId)),
    grants: (user) =>
      cached(`grants:${user.userId}:${user.updatedAt}`, async () => {
        const member = (await groups()).filter(
          (group) => isGroupMember(group, user) && withinBraceLimit(group),
        )
        const subjects: ShareSubject[] = [
          { kind: 'user', userId: user.userId },
          ...member.map((g): ShareSubject => ({ kind: 'group', name: g.name })),
        ]
        return { groups: member, shares: await store.listShares({ subjects }) }
      }),
    rules(rules) {
      const id = JSON.stringify(rules)
      const hit = compiled.get(id)
      if (hit !== undefined) {
        compiled.delete(id)
        compiled.set(id, hit)
        return hit.rules
      }
      const value = compileStored(rules)
      // The id is kept too: two bytes a character.
      const bytes = value.bytes + 2 * id.length
      if (bytes <= rulesCacheBytes) {
        while (
          compiled.size > 0 &&
          (compiledBytes + bytes > rulesCacheBytes || compiled.size >= MAX_ENTRIES)
        ) {
          evictOldest()
        }
        compiled.set(id, { rules: value, bytes })
        compiledBytes += bytes
      }
      return value
    },
    compiledRulesBytes: () => compiledBytes,
    invalidate: () => entries.clear(),
  }
}

/** Compiles stored rules; rules that no longer pass validation deny everything. */
function compileStored(rules: readonly Rule[]): CompiledRules {
  try {
    return createRulesEvaluator(rules)
  } catch (err) {
    return createDenyingEvaluator(
      rules,
      `these rules cannot be compiled: ${(err as Error).message}`,
    )
  }
}

/**
 * False for a group whose patterns expand beyond the brace limit (stored before it existed):
 * its members get nothing from it, rather than a deny pattern that matches too little.
 */
function withinBraceLimit(group: Group): boolean {
  try {
    for (const pattern of [group.defaultAllow, group.defaultDeny]) {
      if (pattern !== '') compilePathGlob(pattern)
    }
    return true
  } catch {
    return false
  }
}
