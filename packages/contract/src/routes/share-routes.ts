import * as v from 'valibot'
import { uuidSchema } from '../identity/identity-ids'
import { defineRoute } from '../route'
import {
  createdShareLinkSchema,
  shareBodySchema,
  shareLinkBodySchema,
  shareLinkSchema,
  shareResultSchema,
  shareSchema,
  unshareBodySchema,
} from '../shares'

const pathQuery = v.object({ path: v.optional(v.string()) })

/** Routes of /files/share* (root, spec "Root user"): shares and share links (DESIGN §7.1). */
export const shareRoutes = {
  sharesCreate: defineRoute({
    id: 'shares.create',
    method: 'POST',
    path: '/files/share',
    auth: 'root',
    request: { body: shareBodySchema },
    response: shareResultSchema,
  }),
  sharesList: defineRoute({
    id: 'shares.list',
    method: 'GET',
    path: '/files/shares',
    auth: 'root',
    request: { query: pathQuery },
    response: v.object({ items: v.array(shareSchema) }),
  }),
  sharesDelete: defineRoute({
    id: 'shares.delete',
    method: 'DELETE',
    path: '/files/shares',
    auth: 'root',
    request: { body: unshareBodySchema },
    response: v.object({ removed: v.number() }),
  }),
  shareLinksCreate: defineRoute({
    id: 'share_links.create',
    method: 'POST',
    path: '/files/share-link',
    auth: 'root',
    request: { body: shareLinkBodySchema },
    response: createdShareLinkSchema,
    successStatus: 201,
  }),
  shareLinksList: defineRoute({
    id: 'share_links.list',
    method: 'GET',
    path: '/files/share-links',
    auth: 'root',
    request: { query: pathQuery },
    response: v.object({ items: v.array(shareLinkSchema) }),
  }),
  shareLinksDelete: defineRoute({
    id: 'share_links.delete',
    method: 'DELETE',
    path: '/files/share-links/{key_id}',
    auth: 'root',
    request: { params: v.object({ key_id: uuidSchema }) },
    response: v.object({ revoked: v.literal(true), key_id: v.string() }),
  }),
} as const
