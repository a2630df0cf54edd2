import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { whoamiSchema } from './whoami'

const ROOT_ID = '00000000-0000-4000-8000-000000000000'
const KEY_ID = '11111111-1111-4111-8111-111111111111'

describe('whoamiSchema', () => {
  it('accepts a user key, a share key and a magic-link token', () => {
    const user = {
      user_id: ROOT_ID,
      username: 'root',
      email: null,
      is_root: true,
      key_id: KEY_ID,
      scoped: false,
      rules: [],
    }
    expect(v.is(whoamiSchema, user)).toBe(true)
    const share = {
      ...user,
      user_id: null,
      username: null,
      is_root: false,
      scoped: true,
      rules: [{ '/docs/**': '-r--l---' }],
    }
    expect(v.is(whoamiSchema, share)).toBe(true)
    expect(v.is(whoamiSchema, { ...user, key_id: null, email: 'a@b.c' })).toBe(true)
  })

  it('refuses missing fields, extra fields and bad rules', () => {
    const ok = {
      user_id: null,
      username: null,
      email: null,
      is_root: false,
      key_id: KEY_ID,
      scoped: true,
      rules: [],
    }
    const { key_id: _omitted, ...missing } = ok
    expect(v.is(whoamiSchema, missing)).toBe(false)
    expect(v.is(whoamiSchema, { ...ok, extra: 1 })).toBe(false)
    expect(v.is(whoamiSchema, { ...ok, rules: [{ '/a': 'rw' }] })).toBe(false)
  })
})
