import { routes } from '@svcdb/contract'
import type { BodyOf, CallOptions } from '../http/route-types'
import type { ResponseOf, Transport } from '../http/transport'

type R = typeof routes

/** Shares and share links (root, DESIGN §7.1). */
export interface SharesApi {
  /** Grants exactly `permissions` on each path to users (by id) and groups (by name). */
  share(
    input: BodyOf<R['sharesCreate']>,
    options?: CallOptions,
  ): Promise<ResponseOf<R['sharesCreate']>>
  /** Shares on exactly `path`, or all. */
  list(path?: string, options?: CallOptions): Promise<ResponseOf<R['sharesList']>['items']>
  /** Removes the shares on a path (of one user or group when given); returns how many. */
  unshare(
    input: BodyOf<R['sharesDelete']>,
    options?: CallOptions,
  ): Promise<ResponseOf<R['sharesDelete']>>
  /** Creates a share key whose rules are its only authority; the key is shown only here. */
  createLink(
    input: BodyOf<R['shareLinksCreate']>,
    options?: CallOptions,
  ): Promise<ResponseOf<R['shareLinksCreate']>>
  listLinks(path?: string, options?: CallOptions): Promise<ResponseOf<R['shareLinksList']>['items']>
  revokeLink(keyId: string, options?: CallOptions): Promise<ResponseOf<R['shareLinksDelete']>>
}

/** @internal */
export function sharesApi(t: Transport): SharesApi {
  return {
    share: (json, o = {}) => t.json(routes.sharesCreate, { json, signal: o.signal }),
    list: async (path, o = {}) =>
      (await t.json(routes.sharesList, { query: { path }, signal: o.signal })).items,
    unshare: (json, o = {}) => t.json(routes.sharesDelete, { json, signal: o.signal }),
    createLink: (json, o = {}) => t.json(routes.shareLinksCreate, { json, signal: o.signal }),
    listLinks: async (path, o = {}) =>
      (await t.json(routes.shareLinksList, { query: { path }, signal: o.signal })).items,
    revokeLink: (keyId, o = {}) =>
      t.json(routes.shareLinksDelete, { params: { key_id: keyId }, signal: o.signal }),
  }
}
