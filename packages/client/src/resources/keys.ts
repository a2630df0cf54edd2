import { routes } from '@svcdb/contract'
import type { BodyOf, CallOptions } from '../http/route-types'
import type { ResponseOf, Transport } from '../http/transport'

type R = typeof routes

/** API keys: your own (any caller), and administrative ones (root). */
export interface KeysApi {
  /** A key for yourself (root: for `user_id`); its `key` string is shown only here. */
  create(
    input?: BodyOf<R['authKeysCreate']>,
    options?: CallOptions,
  ): Promise<ResponseOf<R['authKeysCreate']>>
  /** Your keys that are not revoked (root: everyone's). */
  list(options?: CallOptions): Promise<ResponseOf<R['authKeysList']>>
  revoke(keyId: string, options?: CallOptions): Promise<ResponseOf<R['authKeysRevoke']>>
  /** Root: an administrative key for a user. */
  createAdmin(
    input?: BodyOf<R['authAdminKeysCreate']>,
    options?: CallOptions,
  ): Promise<ResponseOf<R['authAdminKeysCreate']>>
  /** Root: every key with a holder, revoked ones included. */
  listAdmin(options?: CallOptions): Promise<ResponseOf<R['authAdminKeysList']>['items']>
  revokeAdmin(keyId: string, options?: CallOptions): Promise<ResponseOf<R['authAdminKeysRevoke']>>
}

/** Magic links, who you are, and the token calls (the client makes those itself). */
export interface AuthApi {
  /**
   * Who the client's credential speaks for (`GET /auth/whoami`): `user_id`, `username`,
   * `email` (`null` for a share key, `email` also for a user without one), `is_root`,
   * `key_id` (`null` for a magic-link token), `scoped` and the key's `rules`.
   *
   * @example
   * const me = await client.auth.whoami()
   * if (!me.is_root) console.log(`${me.username} with rules`, me.rules)
   */
  whoami(options?: CallOptions): Promise<ResponseOf<R['authWhoami']>>
  /** Mails (or, with `--dev`, prints) a sign-in link; the answer is the same for any address. */
  requestMagicLink(email: string, options?: CallOptions): Promise<ResponseOf<R['authMagicLink']>>
  /** Exchanges a magic-link code for an access token. */
  verifyMagicLink(
    code: string,
    options?: CallOptions,
  ): Promise<ResponseOf<R['authMagicLinkVerify']>>
}

/** @internal */
export function keysApi(t: Transport): KeysApi {
  return {
    create: (json = {}, o = {}) => t.json(routes.authKeysCreate, { json, signal: o.signal }),
    list: (o = {}) => t.json(routes.authKeysList, { signal: o.signal }),
    revoke: (keyId, o = {}) =>
      t.json(routes.authKeysRevoke, { params: { key_id: keyId }, signal: o.signal }),
    createAdmin: (json = {}, o = {}) =>
      t.json(routes.authAdminKeysCreate, { json, signal: o.signal }),
    listAdmin: async (o = {}) =>
      (await t.json(routes.authAdminKeysList, { signal: o.signal })).items,
    revokeAdmin: (keyId, o = {}) =>
      t.json(routes.authAdminKeysRevoke, { params: { key_id: keyId }, signal: o.signal }),
  }
}

/** @internal */
export function authApi(t: Transport): AuthApi {
  return {
    whoami: (o = {}) => t.json(routes.authWhoami, { signal: o.signal }),
    requestMagicLink: (email, o = {}) =>
      t.json(routes.authMagicLink, { json: { email }, signal: o.signal }),
    verifyMagicLink: (code, o = {}) =>
      t.json(routes.authMagicLinkVerify, { query: { code }, signal: o.signal }),
  }
}
