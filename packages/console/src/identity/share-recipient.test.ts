import type { GroupView, UserView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import {
  parseRecipient,
  recipientChoices,
  recipientValue,
  shareBody,
  shareHolder,
  unshareBody,
} from './share-recipient'

const U = '00000000-0000-4000-8000-00000000000a'
const ada: UserView = {
  user_id: U,
  username: 'ada',
  is_active: true,
  tags: [],
  created_at: 1,
  updated_at: 1,
}
const staff = { name: 'staff' } as GroupView

describe('recipients', () => {
  it('round-trips through an option value', () => {
    expect(parseRecipient(recipientValue({ kind: 'user', id: U }))).toEqual({ kind: 'user', id: U })
    expect(parseRecipient(recipientValue({ kind: 'group', name: 'a:b' }))).toEqual({
      kind: 'group',
      name: 'a:b',
    })
    expect(parseRecipient('')).toBeUndefined()
  })

  it('lists users then groups', () => {
    expect(recipientChoices([ada], [staff])).toEqual([
      { value: `user:${U}`, label: 'user ada' },
      { value: 'group:staff', label: 'group staff' },
    ])
  })
})

describe('share bodies', () => {
  it('grants to a user or a group', () => {
    expect(shareBody('/docs', { kind: 'user', id: U }, '-r--l---')).toEqual({
      paths: ['/docs'],
      users: [U],
      permissions: '-r--l---',
    })
    expect(shareBody('/docs', { kind: 'group', name: 'staff' }, 'crudl---')).toEqual({
      paths: ['/docs'],
      groups: ['staff'],
      permissions: 'crudl---',
    })
  })

  it('removes exactly one share and names its holder', () => {
    const byUser = { path: '/docs', user_id: U, permissions: '-r------', created_at: 1 }
    const byGroup = { path: '/docs', group: 'staff', permissions: '-r------', created_at: 1 }
    expect(unshareBody(byUser)).toEqual({ path: '/docs', user: U })
    expect(unshareBody(byGroup)).toEqual({ path: '/docs', group: 'staff' })
    expect(shareHolder(byUser, [ada])).toBe('user ada')
    expect(shareHolder(byUser, [])).toBe(`user ${U}`)
    expect(shareHolder(byGroup, [])).toBe('group staff')
  })
})
