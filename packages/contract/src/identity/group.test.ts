import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  createGroupRequestSchema,
  deletedGroupSchema,
  groupSchema,
  updateGroupRequestSchema,
} from './group'

const fields = {
  name: 'staff',
  default_allow: '/staff/**',
  default_deny: '/staff/secret/**',
  query_field: 'tags',
  query_operator: 'has',
  query_value: 'staff',
}

describe('group schemas', () => {
  it('require all six fields, all strings, on create', () => {
    expect(v.is(createGroupRequestSchema, fields)).toBe(true)
    for (const key of Object.keys(fields)) {
      const missing: Record<string, string> = { ...fields }
      delete missing[key]
      expect(v.is(createGroupRequestSchema, missing), key).toBe(false)
    }
    expect(v.is(createGroupRequestSchema, { ...fields, query_value: 1 })).toBe(false)
  })

  it('take any of the fields on update', () => {
    expect(v.is(updateGroupRequestSchema, {})).toBe(true)
    expect(v.is(updateGroupRequestSchema, { query_value: 'ops' })).toBe(true)
    expect(v.is(updateGroupRequestSchema, { members: [] })).toBe(false)
  })

  it('show a group with integer millisecond timestamps', () => {
    const group = { ...fields, created_at: 1, updated_at: 2 }
    expect(v.is(groupSchema, group)).toBe(true)
    expect(v.is(groupSchema, { ...group, updated_at: '2' })).toBe(false)
    expect(v.is(deletedGroupSchema, { deleted: true, name: 'staff' })).toBe(true)
  })
})
