import type { User } from '../users/user'
import { commaList } from './group'
import type { Group } from './group'

/**
 * True when `user` is a member of `group`: the group's query field of the user satisfies its
 * operator and value. Timestamps compare as numbers; other fields as strings, `tags` as the
 * comma-joined tag string, except for `has` (one exact tag), `has_any` and `has_all` (the
 * comma-separated tags of the value).
 *
 * @example
 * isGroupMember({ ...group, queryField: 'tags', queryOperator: 'has', queryValue: 'eng' }, user)
 */
export function isGroupMember(group: Group, user: User): boolean {
  const { queryField: field, queryOperator: op, queryValue: value } = group
  if (op === 'has') return user.tags.includes(value)
  if (op === 'has_any') return commaList(value).some((tag) => user.tags.includes(tag))
  if (op === 'has_all') {
    const wanted = commaList(value)
    return wanted.length > 0 && wanted.every((tag) => user.tags.includes(tag))
  }
  if (field === 'created_at' || field === 'updated_at') {
    const actual = field === 'created_at' ? user.createdAt : user.updatedAt
    return compare(actual, op, value, Number)
  }
  const actual =
    field === 'user_id'
      ? user.userId
      : field === 'username'
        ? user.username
        : field === 'is_active'
          ? String(user.isActive)
          : user.tags.join(',')
  if (op === 'contains') return actual.includes(value)
  if (op === 'starts_with') return actual.startsWith(value)
  return compare(actual, op, value, (s) => s)
}

function compare<T extends number | string>(
  actual: T,
  op: Group['queryOperator'],
  value: string,
  convert: (s: string) => T,
): boolean {
  switch (op) {
    case 'eq':
      return actual === convert(value)
    case 'neq':
      return actual !== convert(value)
    case 'gt':
      return actual > convert(value)
    case 'gte':
      return actual >= convert(value)
    case 'lt':
      return actual < convert(value)
    case 'lte':
      return actual <= convert(value)
    case 'in':
      return commaList(value).some((item) => actual === convert(item))
    default:
      return false
  }
}
