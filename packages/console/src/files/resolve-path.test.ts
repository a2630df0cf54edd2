import { describe, expect, it } from 'vitest'
import { childPath, parentPath, resolvePath } from './resolve-path'

describe('resolvePath', () => {
  it('reads a relative input from the directory', () => {
    expect(resolvePath('/docs', 'a.txt')).toBe('/docs/a.txt')
    expect(resolvePath('/', 'a/b.txt')).toBe('/a/b.txt')
    expect(resolvePath('/docs', ' old/a.txt ')).toBe('/docs/old/a.txt')
  })

  it('keeps an absolute input and resolves dot segments', () => {
    expect(resolvePath('/docs', '/x//y/')).toBe('/x/y')
    expect(resolvePath('/docs/sub', '../a.txt')).toBe('/docs/a.txt')
    expect(resolvePath('/docs', './b/./c')).toBe('/docs/b/c')
  })

  it('refuses empty inputs, the root, paths above the root and NUL', () => {
    for (const input of ['', '  ', '/', '..', '/..', 'a/../..', 'a\0b'])
      expect(resolvePath('/docs', input)).toBeUndefined()
  })
})

describe('parentPath and childPath', () => {
  it('go up and down one level', () => {
    expect(parentPath('/a/b')).toBe('/a')
    expect(parentPath('/a')).toBe('/')
    expect(parentPath('/')).toBe('/')
    expect(childPath('/', 'x')).toBe('/x')
    expect(childPath('/a', 'x')).toBe('/a/x')
  })
})
