import { describe, expect, it } from 'vitest'
import { compilePathGlob, globForSubtree, isPathPattern, normalizeTargetPath } from './path-glob'

const matching = (pattern: string, paths: string[]) => {
  const glob = compilePathGlob(pattern)
  return paths.filter((p) => glob.matches(p))
}

const all = ['/', '/docs', '/docs/a.txt', '/docs/sub/b.txt', '/docs/.hidden', '/other', '/docsx']

describe('path glob', () => {
  it('lets * match within one segment only', () => {
    expect(matching('/docs/*', all)).toEqual(['/docs/a.txt', '/docs/.hidden'])
    expect(matching('/*', all)).toEqual(['/docs', '/other', '/docsx'])
  })

  it('lets ** match any depth, zero segments included', () => {
    expect(matching('/docs/**', all)).toEqual([
      '/docs',
      '/docs/a.txt',
      '/docs/sub/b.txt',
      '/docs/.hidden',
    ])
    expect(matching('/**', all)).toEqual(all)
    expect(matching('/**/*.txt', all)).toEqual(['/docs/a.txt', '/docs/sub/b.txt'])
  })

  it('supports braces and character classes', () => {
    expect(matching('/{docs,other}', all)).toEqual(['/docs', '/other'])
    expect(matching('/docs/[ab].txt', all)).toEqual(['/docs/a.txt'])
  })

  it('knows the proper ancestors of what a glob can match', () => {
    const glob = compilePathGlob('/projects/*/docs/**')
    expect(glob.leadsTo('/')).toBe(true)
    expect(glob.leadsTo('/projects')).toBe(true)
    expect(glob.leadsTo('/projects/alpha')).toBe(true)
    expect(glob.leadsTo('/other')).toBe(false)
    expect(glob.leadsTo('/projects/alpha/src')).toBe(false)
    expect(compilePathGlob('/docs/a.txt').leadsTo('/docs/a.txt')).toBe(false)
    expect(compilePathGlob('/{a,b}/x').leadsTo('/b')).toBe(true)
  })

  it('accepts only absolute patterns', () => {
    expect(isPathPattern('/docs/**')).toBe(true)
    expect(isPathPattern('docs/**')).toBe(false)
    expect(isPathPattern('')).toBe(false)
    expect(isPathPattern('/a\0b')).toBe(false)
    expect(isPathPattern(`/${'a'.repeat(1024)}`)).toBe(false)
    expect(() => compilePathGlob('docs')).toThrow(TypeError)
  })

  it('builds a subtree glob that matches a path with glob characters literally', () => {
    const glob = compilePathGlob(globForSubtree('/a [1]*'))
    expect(glob.matches('/a [1]*')).toBe(true)
    expect(glob.matches('/a [1]*/x')).toBe(true)
    expect(glob.matches('/a 1x')).toBe(false)
    expect(globForSubtree('/')).toBe('/**')
  })

  it('escapes braces in a subtree glob, so a share of /a{b,c} never covers /ab', () => {
    const glob = compilePathGlob(globForSubtree('/a{b,c}/{1..20}{1..20}{1..20}'))
    expect(glob.matches('/a{b,c}/{1..20}{1..20}{1..20}/x')).toBe(true)
    expect(glob.matches('/ab/111')).toBe(false)
    expect(glob.matches('/ac')).toBe(false)
  })

  it('refuses to build a glob whose braces expand past the limit', () => {
    expect(() => compilePathGlob('/{1..20}{1..20}{1..20}')).toThrow(RangeError)
    expect(() => compilePathGlob(`/${'{a,b}'.repeat(7)}`)).toThrow(RangeError)
    expect(compilePathGlob(`/${'{a,b}'.repeat(6)}`).matches('/ababab')).toBe(true)
    expect(compilePathGlob('/{1..20}/{a,b}', 40).matches('/20/b')).toBe(true)
  })

  it('normalises target paths', () => {
    expect(normalizeTargetPath('')).toBe('/')
    expect(normalizeTargetPath('a//b/')).toBe('/a/b')
    expect(normalizeTargetPath('/')).toBe('/')
  })
})
