import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  adminKeyViewSchema,
  createAdminKeyRequestSchema,
  createdAdminKeySchema,
  createdKeySchema,
  createKeyRequestSchema,
  keyViewSchema,
  permissionFlagsSchema,
  revokedKeySchema,
  ruleSchema,
} from './api-key'

const KEY_ID = '0f8fad5b-d9cb-469f-a165-70867728950e'
const USER_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7'

describe('permissionFlagsSchema', () => {
  it.each(['crudlify', '-r--l---', '--------', 'c-------', '-------y'])('accepts %s', (flags) => {
    expect(v.is(permissionFlagsSchema, flags)).toBe(true)
  })

  it.each(['rl', 'crudlifyy', 'rcudlify', 'CRUDLIFY', 'crudlif-x', '', 'r-------'])(
    'rejects %j',
    (flags) => {
      expect(v.is(permissionFlagsSchema, flags)).toBe(false)
    },
  )
})

describe('ruleSchema', () => {
  it('accepts an object with one absolute glob naming a flag string', () => {
    expect(v.is(ruleSchema, { '/docs/**': '-r--l---' })).toBe(true)
  })

  it.each([
    {},
    { '/a': 'crudlify', '/b': '--------' },
    { 'docs/**': '-r--l---' },
    { '/docs': '-r--l--' },
    { '/docs': 7 },
    ['/docs', 'crudlify'],
    '/docs',
    null,
  ])('rejects %j', (rule) => {
    expect(v.is(ruleSchema, rule)).toBe(false)
  })
})

describe('createKeyRequestSchema', () => {
  it('accepts an empty body and every field', () => {
    expect(v.parse(createKeyRequestSchema, {})).toEqual({})
    const full = {
      label: 'ci',
      expires_in_days: 30,
      rules: [{ '/ci/**': 'crudl---' }],
      user_id: USER_ID,
    }
    expect(v.parse(createKeyRequestSchema, full)).toEqual(full)
  })

  it.each([1, 730, 3650])('accepts expires_in_days %d', (days) => {
    expect(v.is(createKeyRequestSchema, { expires_in_days: days })).toBe(true)
  })

  it.each([0, -1, 3651, 1.5, '30', null])('rejects expires_in_days %j', (days) => {
    expect(v.is(createKeyRequestSchema, { expires_in_days: days })).toBe(false)
  })

  it.each([
    { rules: { '/a': 'crudlify' } },
    { rules: [{ '/a': 'rw' }] },
    { user_id: 'nope' },
    { label: 3 },
    { scope: 'all' },
  ])('rejects %j', (body) => {
    expect(v.is(createKeyRequestSchema, body)).toBe(false)
  })
})

describe('createAdminKeyRequestSchema', () => {
  it('defaults an absent body to no user_id and takes a UUID', () => {
    expect(v.parse(createAdminKeyRequestSchema, undefined)).toEqual({})
    expect(v.parse(createAdminKeyRequestSchema, { user_id: USER_ID })).toEqual({
      user_id: USER_ID,
    })
    expect(v.is(createAdminKeyRequestSchema, { user_id: 'root' })).toBe(false)
  })
})

describe('key views', () => {
  const listed = {
    key_id: KEY_ID,
    user_id: USER_ID,
    label: 'laptop',
    expires_at: 1_800_000_000_000,
    created_at: 1_700_000_000_000,
    rules: [],
  }

  it('list a self-service key with integer timestamps and no secret', () => {
    expect(v.is(keyViewSchema, listed)).toBe(true)
    expect(v.is(keyViewSchema, { ...listed, user_id: null })).toBe(true)
    expect(v.is(keyViewSchema, { ...listed, key: 'svc_k_x' })).toBe(false)
    expect(v.is(keyViewSchema, { ...listed, expires_at: '2030-01-01T00:00:00Z' })).toBe(false)
  })

  it('show the plaintext key only in the creation answer, without created_at', () => {
    const { created_at: _, ...rest } = listed
    const created = { ...rest, key: `svc_k_${'a'.repeat(16)}_${'b'.repeat(43)}` }
    expect(v.is(createdKeySchema, created)).toBe(true)
    expect(v.is(createdKeySchema, { ...created, key: 'svc_abc' })).toBe(false)
  })

  it('show administrative keys with ISO 8601 created_at', () => {
    const admin = {
      key_id: KEY_ID,
      user_id: USER_ID,
      created_at: '2023-11-14T22:13:20.000Z',
      is_revoked: false,
    }
    expect(v.is(adminKeyViewSchema, admin)).toBe(true)
    expect(v.is(adminKeyViewSchema, { ...admin, created_at: 1_700_000_000_000 })).toBe(false)
    expect(v.is(adminKeyViewSchema, { ...admin, api_key: 'svc_x' })).toBe(false)
    const { is_revoked: _, ...rest } = admin
    expect(v.is(createdAdminKeySchema, { ...rest, api_key: 'svc_0123_secret' })).toBe(true)
    expect(v.is(createdAdminKeySchema, rest)).toBe(false)
  })

  it('answer a revocation with revoked and key_id', () => {
    expect(v.is(revokedKeySchema, { revoked: true, key_id: KEY_ID })).toBe(true)
    expect(v.is(revokedKeySchema, { revoked: true })).toBe(false)
  })
})
