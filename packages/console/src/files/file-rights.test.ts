import type { EntryView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { canRestore, directoryRights, entryRights, permits } from './file-rights'

const entry = (effective_permissions?: string): EntryView => ({
  path: '/a/b.txt',
  name: 'b.txt',
  entry_type: 'file',
  size: 1,
  hash: 'h',
  content_type: 'text/plain',
  created_at: 0,
  updated_at: 0,
  ...(effective_permissions === undefined ? {} : { effective_permissions }),
})

describe('file-rights', () => {
  it('reads each operation from its letter', () => {
    expect(permits('crudl---', 'create')).toBe(true)
    expect(permits('-r--l---', 'create')).toBe(false)
    expect(permits('-r--l---', 'read')).toBe(true)
    expect(permits('-r--l---', 'update')).toBe(false)
    expect(permits('-r--l---', 'delete')).toBe(false)
    expect(permits('-r--l---', 'list')).toBe(true)
    expect(permits('---d----', 'delete')).toBe(true)
  })

  it('allows everything when the server gave no permissions', () => {
    expect(permits(undefined, 'delete')).toBe(true)
    expect(directoryRights(undefined)).toEqual({ upload: true, mkdir: true })
    expect(entryRights(entry())).toEqual({ rename: true, copy: true, delete: true })
  })

  it('offers no upload nor new directory in a read-only directory', () => {
    expect(directoryRights('-r--l---')).toEqual({ upload: false, mkdir: false })
    expect(directoryRights('crudl---')).toEqual({ upload: true, mkdir: true })
    expect(directoryRights('--u-----')).toEqual({ upload: true, mkdir: false })
  })

  it('offers a copy of what it may read, a rename and delete only of what it may delete', () => {
    expect(entryRights(entry('-r--l---'))).toEqual({ rename: false, copy: true, delete: false })
    expect(entryRights(entry('-r-dl---'))).toEqual({ rename: true, copy: true, delete: true })
    expect(entryRights(entry('---d----'))).toEqual({ rename: false, copy: false, delete: true })
  })

  it('offers a restore to root only, and not over a file its key may not update', () => {
    expect(canRestore(entry(), true)).toBe(true)
    expect(canRestore(entry(), false)).toBe(false)
    expect(canRestore(entry('-r--l---'), true)).toBe(false)
    expect(canRestore(entry('-ru-l---'), true)).toBe(true)
  })
})
