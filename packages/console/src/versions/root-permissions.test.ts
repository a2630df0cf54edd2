import { describe, expect, it } from 'vitest'
import { mayOnRoot } from './root-permissions'

describe('mayOnRoot', () => {
  it('lets root do everything, whatever the permissions say', () => {
    expect(mayOnRoot(true, '--------', 'delete')).toBe(true)
  })

  it('follows a scoped key’s permissions on /', () => {
    expect(mayOnRoot(false, '-r--l---', 'create')).toBe(false)
    expect(mayOnRoot(false, '-r--l---', 'delete')).toBe(false)
    expect(mayOnRoot(false, 'cr--l---', 'create')).toBe(true)
    expect(mayOnRoot(false, 'cr--l---', 'delete')).toBe(false)
    expect(mayOnRoot(false, '-r-dl---', 'delete')).toBe(true)
  })

  it('offers the action when the server did not say (an unrestricted key)', () => {
    expect(mayOnRoot(false, undefined, 'delete')).toBe(true)
  })

  it('offers nothing for a permission string of the wrong length', () => {
    expect(mayOnRoot(false, 'crud', 'create')).toBe(false)
  })
})
