import type { UserView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { userChanges, userFields } from './user-changes'

const ada: UserView = {
  user_id: '00000000-0000-4000-8000-00000000000a',
  username: 'ada',
  email: 'ada@example.com',
  is_active: true,
  tags: [],
  created_at: 1,
  updated_at: 1,
}

describe('userChanges', () => {
  it('is empty when nothing changed', () => {
    expect(userChanges(ada, userFields(ada))).toEqual({})
  })

  it('sends only what changed, trimmed', () => {
    expect(
      userChanges(ada, { username: ' lovelace ', email: 'ada@example.com', isActive: false }),
    ).toEqual({
      username: 'lovelace',
      is_active: false,
    })
  })

  it('removes an emptied email with null and adds a new one', () => {
    expect(userChanges(ada, { ...userFields(ada), email: '  ' })).toEqual({ email: null })
    const { email: _, ...noEmail } = ada
    expect(userChanges(noEmail, { ...userFields(noEmail), email: 'a@b.c' })).toEqual({
      email: 'a@b.c',
    })
  })
})
