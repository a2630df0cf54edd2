import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { userIdParamsSchema } from './identity-ids'
import {
  createUserRequestSchema,
  deactivatedUserSchema,
  updateUserRequestSchema,
  userSchema,
} from './user'

const USER_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7'
const user = {
  user_id: USER_ID,
  username: 'ada',
  email: 'ada@example.com',
  is_active: true,
  tags: ['staff'],
  created_at: 1_700_000_000_000,
  updated_at: 1_700_000_000_000,
}

describe('userSchema', () => {
  it('shows a user with integer millisecond timestamps, email optional', () => {
    expect(v.is(userSchema, user)).toBe(true)
    const { email: _, ...noEmail } = user
    expect(v.is(userSchema, noEmail)).toBe(true)
    expect(v.is(userSchema, { ...user, created_at: '2023-11-14' })).toBe(false)
    expect(v.is(userSchema, { ...user, is_active: 'yes' })).toBe(false)
  })
})

describe('user requests', () => {
  it('require a username on create', () => {
    expect(v.is(createUserRequestSchema, { username: 'ada' })).toBe(true)
    expect(v.is(createUserRequestSchema, { username: 'ada', tags: ['a'], email: 'a@b.c' })).toBe(
      true,
    )
    expect(v.is(createUserRequestSchema, {})).toBe(false)
    expect(v.is(createUserRequestSchema, { username: '' })).toBe(false)
    expect(v.is(createUserRequestSchema, { username: 'ada', is_active: false })).toBe(false)
  })

  it('take any of the fields on update, and null to remove the email', () => {
    expect(v.is(updateUserRequestSchema, {})).toBe(true)
    expect(v.is(updateUserRequestSchema, { is_active: false, email: null })).toBe(true)
    expect(v.is(updateUserRequestSchema, { tags: 'a,b' })).toBe(false)
    expect(v.is(updateUserRequestSchema, { user_id: USER_ID })).toBe(false)
  })

  it('answer a deactivation with deactivated and user_id', () => {
    expect(v.is(deactivatedUserSchema, { deactivated: true, user_id: USER_ID })).toBe(true)
  })
})

describe('userIdParamsSchema', () => {
  it.each([USER_ID, USER_ID.toUpperCase(), '00000000-0000-0000-0000-000000000000'])(
    'accepts %s',
    (id) => {
      expect(v.is(userIdParamsSchema, { user_id: id })).toBe(true)
    },
  )

  it.each(['ada', '7c9e6679742540de944be07fc1f90ae7', `${USER_ID}0`, ''])('rejects %j', (id) => {
    expect(v.is(userIdParamsSchema, { user_id: id })).toBe(false)
  })
})
