import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  OPERATIONS,
  isPermissionString,
  permissionMask,
  permissionString,
  permits,
} from './permission-flags'

describe('permission flags', () => {
  it('accepts letters only in their own position', () => {
    expect(isPermissionString('crudlify')).toBe(true)
    expect(isPermissionString('--------')).toBe(true)
    expect(isPermissionString('-r--l---')).toBe(true)
    expect(isPermissionString('r-------')).toBe(false)
    expect(isPermissionString('crudlif')).toBe(false)
    expect(isPermissionString('crudlifyy')).toBe(false)
    expect(isPermissionString('CRUDLIFY')).toBe(false)
    expect(isPermissionString(null)).toBe(false)
  })

  it('tells which operations a string allows', () => {
    expect(permits('-r--l---', 'read')).toBe(true)
    expect(permits('-r--l---', 'list')).toBe(true)
    expect(permits('-r--l---', 'create')).toBe(false)
    expect(OPERATIONS.filter((op) => permits('crudlify', op))).toEqual(OPERATIONS)
    expect(OPERATIONS.filter((op) => permits('--------', op))).toEqual([])
  })

  it('round-trips every mask through its string', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), (mask) => {
        const s = permissionString(mask)
        expect(isPermissionString(s)).toBe(true)
        expect(permissionMask(s)).toBe(mask)
      }),
    )
  })
})
