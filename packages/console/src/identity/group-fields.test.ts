import type { GroupView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { groupChanges, groupFields } from './group-fields'

const staff: GroupView = {
  name: 'staff',
  default_allow: '/team/**',
  default_deny: '/team/secret/**',
  query_field: 'tags',
  query_operator: 'has',
  query_value: 'staff',
  created_at: 1,
  updated_at: 2,
}

describe('groupFields and groupChanges', () => {
  it('takes the six fields and sees no change in them', () => {
    const fields = groupFields(staff)
    expect(fields).toEqual({
      name: 'staff',
      default_allow: '/team/**',
      default_deny: '/team/secret/**',
      query_field: 'tags',
      query_operator: 'has',
      query_value: 'staff',
    })
    expect(groupChanges(staff, fields)).toEqual({})
  })

  it('sends only the changed fields, never a new name', () => {
    expect(
      groupChanges(staff, {
        ...groupFields(staff),
        name: 'other',
        query_value: 'staff,ops',
        query_operator: 'has_any',
      }),
    ).toEqual({ query_operator: 'has_any', query_value: 'staff,ops' })
  })
})
