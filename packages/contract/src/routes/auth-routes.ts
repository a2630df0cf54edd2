import * as v from 'valibot'
import {
  adminKeyViewSchema,
  createAdminKeyRequestSchema,
  createdAdminKeySchema,
  createdKeySchema,
  createKeyRequestSchema,
  keyViewSchema,
  revokedKeySchema,
} from '../identity/api-key'
import { keyIdParamsSchema } from '../identity/identity-ids'
import {
  accessGrantSchema,
  magicLinkRequestSchema,
  magicLinkResponseSchema,
  magicLinkVerifyQuerySchema,
  refreshRequestSchema,
  tokenGrantSchema,
  tokenRequestSchema,
} from '../identity/token'
import { whoamiSchema } from '../identity/whoami'
import { defineRoute } from '../route'

/** Routes of /auth/* (token, refresh, magic links, API keys, and who the caller is). */
export const authRoutes = {
  authToken: defineRoute({
    id: 'auth.token',
    method: 'POST',
    path: '/auth/token',
    auth: 'none',
    request: { body: tokenRequestSchema },
    response: tokenGrantSchema,
  }),
  authMagicLink: defineRoute({
    id: 'auth.magicLink.request',
    method: 'POST',
    path: '/auth/magic-link',
    auth: 'none',
    request: { body: magicLinkRequestSchema },
    response: magicLinkResponseSchema,
  }),
  authMagicLinkVerify: defineRoute({
    id: 'auth.magicLink.verify',
    method: 'GET',
    path: '/auth/magic-link/verify',
    auth: 'none',
    request: { query: magicLinkVerifyQuerySchema },
    response: accessGrantSchema,
  }),
  authRefresh: defineRoute({
    id: 'auth.refresh',
    method: 'POST',
    path: '/auth/refresh',
    auth: 'none',
    request: { body: refreshRequestSchema },
    response: tokenGrantSchema,
  }),
  authAdminKeysCreate: defineRoute({
    id: 'auth.keys.admin.create',
    method: 'POST',
    path: '/auth/keys/admin',
    auth: 'root',
    request: { body: createAdminKeyRequestSchema },
    response: createdAdminKeySchema,
    successStatus: 201,
  }),
  authAdminKeysList: defineRoute({
    id: 'auth.keys.admin.list',
    method: 'GET',
    path: '/auth/keys/admin',
    auth: 'root',
    response: v.strictObject({ items: v.array(adminKeyViewSchema) }),
  }),
  authAdminKeysRevoke: defineRoute({
    id: 'auth.keys.admin.revoke',
    method: 'DELETE',
    path: '/auth/keys/admin/{key_id}',
    auth: 'root',
    request: { params: keyIdParamsSchema },
    response: revokedKeySchema,
  }),
  authKeysCreate: defineRoute({
    id: 'auth.keys.create',
    method: 'POST',
    path: '/auth/keys',
    auth: 'token',
    request: { body: v.optional(createKeyRequestSchema, {}) },
    response: createdKeySchema,
    successStatus: 201,
  }),
  authKeysList: defineRoute({
    id: 'auth.keys.list',
    method: 'GET',
    path: '/auth/keys',
    auth: 'token',
    // A bare array, as the spec shows; every other list answers `{items}`.
    response: v.array(keyViewSchema),
  }),
  authKeysRevoke: defineRoute({
    id: 'auth.keys.revoke',
    method: 'DELETE',
    path: '/auth/keys/{key_id}',
    auth: 'token',
    request: { params: keyIdParamsSchema },
    response: revokedKeySchema,
  }),
  /** Beyond the spec: the caller's identity and rules, so a script can check its credential. */
  authWhoami: defineRoute({
    id: 'auth.whoami',
    method: 'GET',
    path: '/auth/whoami',
    auth: 'token',
    response: whoamiSchema,
  }),
} as const
