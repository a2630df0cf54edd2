import { isGroupMember } from '../groups/group-membership'
import type { ApiKeyRecord } from '../keys/api-key'
import type { Grants } from '../permissions/access'
import type { Rule } from '../permissions/rule'
import { createRulesEvaluator } from '../permissions/rules-evaluator'
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
  user(userId: string): Promise<User | undefined>
  /** The groups `user` belongs to and the shares granted to it or to them. */
  grants(user: User): Promise<Grants>
  /** The compiled form of a key's rules (rules never change after creation). */
  rules(rules: readonly Rule[]): CompiledRules
  /** Forgets every cached lookup. */
  invalidate(): void
}

const MAX_ENTRIES = 10_000

/** An {@link IdentityCache} over `store`; `now` reads the clock. */
export function createIdentityCache(
  store: IdentityStore,
  now: () => number,
  ttlMs: number,
): IdentityCache {
  const entries = new Map<string, { at: number; value: Promise<unknown> }>()
  const compiled = new Map<string, CompiledRules>()
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
    user: (userId) => cached(`user:${userId}`, () => store.getUser(userId)),
    grants: (user) =>
      cached(`grants:${user.userId}:${user.updatedAt}`, async () => {
        const member = (await groups()).filter((group) => isGroupMember(group, user))
        const subjects: ShareSubject[] = [
          { kind: 'user', userId: user.userId },
          ...member.map((g): ShareSubject => ({ kind: 'group', name: g.name })),
        ]
        return { groups: member, shares: await store.listShares({ subjects }) }
      }),
    rules(rules) {
      const id = JSON.stringify(rules)
      let hit = compiled.get(id)
      if (hit === undefined) {
        if (compiled.size >= MAX_ENTRIES) compiled.clear()
        hit = createRulesEvaluator(rules)
        compiled.set(id, hit)
      }
      return hit
    },
    invalidate: () => entries.clear(),
  }
}
