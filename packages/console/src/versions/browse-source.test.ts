import { describe, expect, it } from 'vitest'
import { sourceFileUrl, sourceLabel, sourceSelector } from './browse-source'

describe('browse source', () => {
  it('names a fork or a snapshot as the client’s read option', () => {
    expect(sourceSelector({ kind: 'fork', name: 'draft' })).toEqual({ fork: 'draft' })
    expect(sourceSelector({ kind: 'snapshot', name: 'v1' })).toEqual({ snapshot: 'v1' })
  })

  it('points a file’s URL at the source, encoding the path and the name', () => {
    expect(sourceFileUrl('http://h:1/', { kind: 'fork', name: 'my draft' }, '/a b/c.txt')).toBe(
      'http://h:1/files/a%20b/c.txt?fork=my+draft',
    )
    expect(sourceFileUrl('http://h:1', { kind: 'snapshot', name: 'v1&x=2' }, '/r.md')).toBe(
      'http://h:1/files/r.md?snapshot=v1%26x%3D2',
    )
  })

  it('labels the source by kind and name', () => {
    expect(sourceLabel({ kind: 'fork', name: 'draft' })).toBe('fork draft')
    expect(sourceLabel({ kind: 'snapshot', name: 'v1' })).toBe('snapshot v1')
  })
})
