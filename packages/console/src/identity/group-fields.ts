import type { GroupView } from '@svcdb/contract'

/** A group's six string fields, as its form edits them. */
export interface GroupFields {
  name: string
  default_allow: string
  default_deny: string
  query_field: string
  query_operator: string
  query_value: string
}

const KEYS = [
  'name',
  'default_allow',
  'default_deny',
  'query_field',
  'query_operator',
  'query_value',
] as const

/** A new group's starting values: members by a tag, allowed nothing until root says. */
export const NEW_GROUP: GroupFields = {
  name: '',
  default_allow: '',
  default_deny: '',
  query_field: 'tags',
  query_operator: 'has',
  query_value: '',
}

/** The form's values for an existing group. */
export function groupFields(group: GroupView): GroupFields {
  return Object.fromEntries(KEYS.map((key) => [key, group[key]])) as unknown as GroupFields
}

/** A `PATCH /system/groups/{name}` body: the fields that differ from `group` (never the name). */
export function groupChanges(group: GroupView, fields: GroupFields): Partial<GroupFields> {
  const changes: Partial<GroupFields> = {}
  for (const key of KEYS) {
    if (key !== 'name' && fields[key] !== group[key]) changes[key] = fields[key]
  }
  return changes
}
