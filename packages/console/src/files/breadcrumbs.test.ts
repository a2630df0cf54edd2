import { describe, expect, it } from 'vitest'
import { breadcrumbs } from './breadcrumbs'

describe('breadcrumbs', () => {
  it('is the root alone at the root', () => {
    expect(breadcrumbs('/')).toEqual([{ name: '/', path: '/' }])
  })

  it('lists every directory from the root down', () => {
    expect(breadcrumbs('/a/b c/d/')).toEqual([
      { name: '/', path: '/' },
      { name: 'a', path: '/a' },
      { name: 'b c', path: '/a/b c' },
      { name: 'd', path: '/a/b c/d' },
    ])
  })
})
