import type { AdminKeyView, KeyView, UserView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { keyRows } from './key-rows'

const A = '00000000-0000-4000-8000-00000000000a'
const B = '00000000-0000-4000-8000-00000000000b'
const U = '00000000-0000-4000-8000-0000000000ff'

const admin: AdminKeyView[] = [
  { key_id: A, user_id: U, created_at: '2026-01-01T00:00:00.000Z', is_revoked: false },
  { key_id: B, user_id: U, created_at: '2026-02-01T00:00:00.000Z', is_revoked: true },
]
const own: KeyView[] = [
  {
    key_id: A,
    user_id: U,
    label: 'ci',
    expires_at: 1,
    created_at: 1,
    rules: [{ '/d/**': '-r------' }],
  },
]
const users: UserView[] = [
  { user_id: U, username: 'ada', is_active: true, tags: [], created_at: 1, updated_at: 1 },
]

describe('keyRows', () => {
  it('names keys by label (else id) and holders by username, newest first', () => {
    expect(keyRows(admin, own, users)).toEqual([
      {
        keyId: B,
        name: B,
        holder: 'ada',
        createdAt: admin[1]?.created_at,
        revoked: true,
        rules: undefined,
      },
      {
        keyId: A,
        name: 'ci',
        holder: 'ada',
        createdAt: admin[0]?.created_at,
        revoked: false,
        rules: [{ '/d/**': '-r------' }],
      },
    ])
  })

  it('shows the holder’s id when the user is unknown', () => {
    expect(keyRows(admin.slice(0, 1), [], [])[0]?.holder).toBe(U)
  })
})
