import { describe, expect, it } from 'vitest'
import { hashForPath, hashForQuery, pathFromHash, routeFromHash } from './files-route'

describe('files route', () => {
  it('reads the root from an empty hash and from #/files', () => {
    for (const hash of ['', '#', '#/', '#/files', '#/files/']) expect(pathFromHash(hash)).toBe('/')
  })

  it('reads a directory, decoding each segment', () => {
    expect(pathFromHash('#/files/a/b')).toBe('/a/b')
    expect(pathFromHash('#/files/a%20b/%C3%A9t%C3%A9/')).toBe('/a b/été')
  })

  it('refuses hashes of other screens, dot segments and bad escapes', () => {
    for (const hash of [
      '#/filesx',
      '#/versions',
      '#/files/a/../b',
      '#/files/%E0%A4%A',
      '#/files/a%2Fb',
      '#/files/a?other',
      '#/files/a?query?query',
    ])
      expect(pathFromHash(hash)).toBeUndefined()
  })

  it('writes hashes that read back to the same path', () => {
    expect(hashForPath('/')).toBe('#/files')
    expect(hashForPath('/a b/c#d?e')).toBe('#/files/a%20b/c%23d%3Fe')
    for (const path of ['/', '/a', '/a b/c#d?e', '/100%/été', '/x/y/z'])
      expect(pathFromHash(hashForPath(path))).toBe(path)
  })

  it('tells a listing from a query view', () => {
    expect(routeFromHash('#/files/a/b')).toEqual({ path: '/a/b', view: 'listing' })
    expect(routeFromHash('#/files/a/b?query')).toEqual({ path: '/a/b', view: 'query' })
    expect(routeFromHash('#/files?query')).toEqual({ path: '/', view: 'query' })
    expect(hashForQuery('/')).toBe('#/files?query')
    // A name ending in "?query" is escaped, so it stays a name.
    for (const path of ['/a', '/x?query', '/a b/c#d?e'])
      expect(routeFromHash(hashForQuery(path))).toEqual({ path, view: 'query' })
    expect(routeFromHash(hashForPath('/x?query'))).toEqual({ path: '/x?query', view: 'listing' })
  })
})
