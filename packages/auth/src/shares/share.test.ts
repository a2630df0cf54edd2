import { describe, expect, it } from 'vitest'
import { isNormalizedPath, leadsToShare, sameSubject, shareCovers } from './share'

describe('share', () => {
  it('accepts only absolute normalised paths', () => {
    expect(isNormalizedPath('/')).toBe(true)
    expect(isNormalizedPath('/a/b c')).toBe(true)
    for (const bad of ['', 'a', '/a/', '//a', '/a/./b', '/a/../b', '/a\0', 7]) {
      expect(isNormalizedPath(bad)).toBe(false)
    }
  })

  it('covers the shared path and everything below it only', () => {
    expect(shareCovers('/a', '/a')).toBe(true)
    expect(shareCovers('/a', '/a/b/c')).toBe(true)
    expect(shareCovers('/a', '/ab')).toBe(false)
    expect(shareCovers('/a', '/')).toBe(false)
    expect(shareCovers('/', '/x')).toBe(true)
  })

  it('knows the ancestors leading to a share', () => {
    expect(leadsToShare('/a/b', '/')).toBe(true)
    expect(leadsToShare('/a/b', '/a')).toBe(true)
    expect(leadsToShare('/a/b', '/a/b')).toBe(false)
    expect(leadsToShare('/a/b', '/ab')).toBe(false)
    expect(leadsToShare('/', '/')).toBe(false)
  })

  it('compares subjects', () => {
    expect(sameSubject({ kind: 'user', userId: 'u' }, { kind: 'user', userId: 'u' })).toBe(true)
    expect(sameSubject({ kind: 'user', userId: 'u' }, { kind: 'group', name: 'u' })).toBe(false)
    expect(sameSubject({ kind: 'group', name: 'g' }, { kind: 'group', name: 'h' })).toBe(false)
  })
})
