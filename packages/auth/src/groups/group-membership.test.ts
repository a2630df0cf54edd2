import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { User } from '../users/user'
import type { Group } from './group'
import { isGroupMember } from './group-membership'

const user: User = {
  userId: '11111111-1111-4111-8111-111111111111',
  username: 'alice',
  isActive: true,
  tags: ['eng', 'ops'],
  createdAt: 1000,
  updatedAt: 2000,
}

const group = (queryField: string, queryOperator: string, queryValue: string) =>
  ({
    name: 'g',
    defaultAllow: '/**',
    defaultDeny: '',
    queryField,
    queryOperator,
    queryValue,
    createdAt: 0,
    updatedAt: 0,
  }) as Group

const member = (field: string, op: string, value: string, u: User = user) =>
  isGroupMember(group(field, op, value), u)

describe('group membership', () => {
  it('matches tags with has, has_any and has_all', () => {
    expect(member('tags', 'has', 'eng')).toBe(true)
    expect(member('tags', 'has', 'en')).toBe(false)
    expect(member('tags', 'has_any', 'qa, ops')).toBe(true)
    expect(member('tags', 'has_any', 'qa,sales')).toBe(false)
    expect(member('tags', 'has_all', 'ops,eng')).toBe(true)
    expect(member('tags', 'has_all', 'ops,eng,qa')).toBe(false)
  })

  it('compares eq and gt on tags against the comma-joined tag string', () => {
    expect(member('tags', 'eq', 'eng,ops')).toBe(true)
    expect(member('tags', 'eq', 'ops,eng')).toBe(false)
    expect(member('tags', 'gt', 'eng')).toBe(true)
    expect(member('tags', 'gt', 'f')).toBe(false)
    expect(member('tags', 'contains', 'g,o')).toBe(true)
    expect(member('tags', 'eq', '', { ...user, tags: [] })).toBe(true)
  })

  it('compares strings and booleans as strings', () => {
    expect(member('username', 'eq', 'alice')).toBe(true)
    expect(member('username', 'neq', 'alice')).toBe(false)
    expect(member('username', 'lt', 'bob')).toBe(true)
    expect(member('username', 'in', 'bob, alice')).toBe(true)
    expect(member('username', 'starts_with', 'al')).toBe(true)
    expect(member('user_id', 'eq', user.userId)).toBe(true)
    expect(member('is_active', 'eq', 'true')).toBe(true)
    expect(member('is_active', 'eq', 'true', { ...user, isActive: false })).toBe(false)
  })

  it('compares timestamps as numbers', () => {
    // As strings '1000' < '900'; as numbers it is the other way round.
    expect(member('created_at', 'gt', '900')).toBe(true)
    expect(member('created_at', 'lte', '1000')).toBe(true)
    expect(member('updated_at', 'lt', '2000')).toBe(false)
    expect(member('updated_at', 'in', '5, 2000')).toBe(true)
  })

  it('agrees with the plain meaning of the numeric operators', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (createdAt, v) => {
        const u = { ...user, createdAt }
        const s = String(v)
        expect(member('created_at', 'eq', s, u)).toBe(createdAt === v)
        expect(member('created_at', 'gt', s, u)).toBe(createdAt > v)
        expect(member('created_at', 'gte', s, u)).toBe(createdAt >= v)
        expect(member('created_at', 'lt', s, u)).toBe(createdAt < v)
        expect(member('created_at', 'lte', s, u)).toBe(createdAt <= v)
      }),
    )
  })
})
