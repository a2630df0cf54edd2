import { describe, expect, it } from 'vitest'
import { isAuthError } from '../errors'
import type { AuthErrorCode } from '../errors'
import { applyGroupUpdate, parseCreateGroupInput } from './group'
import type { Group } from './group'

const base = {
  name: 'engineers',
  defaultAllow: '/eng/**',
  defaultDeny: '/eng/secret/**',
  queryField: 'tags',
  queryOperator: 'has',
  queryValue: 'eng',
}

const refusal = (code: AuthErrorCode, fn: () => unknown) => {
  try {
    fn()
  } catch (err) {
    expect(isAuthError(err, code)).toBe(true)
    return (err as Error).message
  }
  throw new Error('expected a refusal')
}

describe('group input', () => {
  it('accepts every safe field with an operator that suits it', () => {
    expect(parseCreateGroupInput(base)).toEqual(base)
    const ok = [
      ['user_id', 'eq', '00000000-0000-0000-0000-000000000000'],
      ['username', 'starts_with', 'a'],
      ['is_active', 'eq', 'true'],
      ['tags', 'gt', 'a,b'],
      ['tags', 'has_all', 'a, b'],
      ['created_at', 'gte', '1700000000000'],
      ['updated_at', 'in', '1,2,3'],
    ]
    for (const [queryField, queryOperator, queryValue] of ok) {
      expect(() =>
        parseCreateGroupInput({ ...base, queryField, queryOperator, queryValue }),
      ).not.toThrow()
    }
    expect(() => parseCreateGroupInput({ ...base, defaultDeny: '' })).not.toThrow()
  })

  it('refuses an unsafe query field with its own code', () => {
    for (const queryField of ['email', 'password', '__proto__', 'TAGS']) {
      expect(
        refusal('UNSAFE_QUERY_FIELD', () => parseCreateGroupInput({ ...base, queryField })),
      ).toMatch(/^queryField: /)
    }
  })

  it('refuses operators and values that do not suit the field', () => {
    const bad = [
      ['username', 'has', 'x'],
      ['created_at', 'contains', '1'],
      ['created_at', 'gt', 'yesterday'],
      ['is_active', 'eq', 'yes'],
      ['is_active', 'gt', 'true'],
      ['tags', 'has_any', ' , '],
      ['tags', 'like', 'x'],
    ]
    for (const [queryField, queryOperator, queryValue] of bad) {
      expect(
        refusal('INVALID_INPUT', () =>
          parseCreateGroupInput({ ...base, queryField, queryOperator, queryValue }),
        ),
      ).toMatch(/^query(Operator|Value): /)
    }
  })

  it('refuses malformed names and patterns and missing fields', () => {
    expect(refusal('INVALID_INPUT', () => parseCreateGroupInput({ ...base, name: 'a b' }))).toMatch(
      /^name: /,
    )
    expect(
      refusal('INVALID_INPUT', () => parseCreateGroupInput({ ...base, defaultAllow: 'eng/**' })),
    ).toMatch(/^defaultAllow: /)
    const { queryValue: _, ...missing } = base
    expect(refusal('INVALID_INPUT', () => parseCreateGroupInput(missing))).toMatch(/queryValue/)
  })

  it('applies a change, re-validating the whole query, and refuses renames', () => {
    const group = { ...parseCreateGroupInput(base), createdAt: 1, updatedAt: 1 } as Group
    const changed = applyGroupUpdate(group, { queryOperator: 'has_any', queryValue: 'a,b' }, 5)
    expect(changed).toMatchObject({ queryOperator: 'has_any', queryValue: 'a,b', updatedAt: 5 })
    expect(changed.createdAt).toBe(1)
    expect(applyGroupUpdate(group, { name: 'engineers' }, 5).name).toBe('engineers')
    expect(refusal('INVALID_INPUT', () => applyGroupUpdate(group, { name: 'other' }, 5))).toMatch(
      /renamed/,
    )
    refusal('UNSAFE_QUERY_FIELD', () => applyGroupUpdate(group, { queryField: 'email' }, 5))
    refusal('INVALID_INPUT', () => applyGroupUpdate(group, { queryField: 'username' }, 5))
  })
})
