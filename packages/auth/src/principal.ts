import type { Rule } from './permissions/rule'
import { ROOT_USER_ID } from './users/user'

/** Who is calling, as established from an access token. */
export interface Principal {
  /** The user, or `null` for a share key (its rules are its only authority). */
  userId: string | null
  /** The API key the token descends from; absent for magic-link tokens. */
  keyId?: string
  /**
   * True when the caller may do root-only things: the root user with an unrestricted
   * credential. A root key with rules is restricted by them (DESIGN §10), so it is not.
   */
  isRoot: boolean
  /** The key's rules, in order; empty when the credential is unrestricted. */
  rules: readonly Rule[]
  /**
   * True when rules restrict the caller (a key with rules, or a share key): denials then
   * answer 404 rather than 403 and listings carry `effective_permissions`.
   */
  scoped: boolean
}

/** The principal of `--auth disabled`: every request acts as root (spec). */
export const ROOT_PRINCIPAL: Principal = Object.freeze({
  userId: ROOT_USER_ID,
  isRoot: true,
  rules: Object.freeze([]) as readonly Rule[],
  scoped: false,
})

/** Builds the principal of a verified credential. */
export function principalOf(
  userId: string | null,
  keyId: string | undefined,
  rules: readonly Rule[],
): Principal {
  const scoped = rules.length > 0 || userId === null
  const principal: Principal = { userId, isRoot: userId === ROOT_USER_ID && !scoped, rules, scoped }
  if (keyId !== undefined) principal.keyId = keyId
  return principal
}
