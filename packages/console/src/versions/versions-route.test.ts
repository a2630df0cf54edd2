import { describe, expect, it } from 'vitest'
import { hashForBrowse, versionsRouteFromHash } from './versions-route'
import type { BrowseTarget } from './versions-route'

describe('versions route', () => {
  it('reads the overview from #/versions, with or without a slash', () => {
    for (const hash of ['#/versions', '#/versions/', '#/versions//'])
      expect(versionsRouteFromHash(hash)).toEqual({ view: 'overview' })
  })

  it('reads the root of a fork and of a snapshot', () => {
    expect(versionsRouteFromHash('#/versions/forks/draft')).toEqual({
      view: 'browse',
      kind: 'fork',
      name: 'draft',
      path: '/',
    })
    expect(versionsRouteFromHash('#/versions/snapshots/v1/')).toEqual({
      view: 'browse',
      kind: 'snapshot',
      name: 'v1',
      path: '/',
    })
  })

  it('reads a directory of a fork, decoding the name and each segment', () => {
    expect(versionsRouteFromHash('#/versions/forks/my%20fork/a%20b/%C3%A9t%C3%A9/')).toEqual({
      view: 'browse',
      kind: 'fork',
      name: 'my fork',
      path: '/a b/été',
    })
  })

  it('lets a name hold an encoded slash, which a path segment may not', () => {
    expect(versionsRouteFromHash('#/versions/forks/team%2Fdraft/docs')).toMatchObject({
      name: 'team/draft',
      path: '/docs',
    })
    expect(versionsRouteFromHash('#/versions/forks/draft/a%2Fb')).toBeUndefined()
  })

  it('refuses other sections, unknown sub-routes, missing names, dot segments and bad escapes', () => {
    for (const hash of [
      '',
      '#/files/a',
      '#/versionsx',
      '#/versions/branches/draft',
      '#/versions/forks',
      '#/versions/snapshots/',
      '#/versions/forks/draft/a/../b',
      '#/versions/forks/draft/./b',
      '#/versions/forks/%E0%A4%A',
      '#/versions/snapshots/v1/%E0%A4%A',
    ])
      expect(versionsRouteFromHash(hash), hash).toBeUndefined()
  })

  it('writes hashes that read back to the same place', () => {
    expect(hashForBrowse({ kind: 'fork', name: 'draft', path: '/' })).toBe('#/versions/forks/draft')
    expect(hashForBrowse({ kind: 'snapshot', name: 'v 1', path: '/a b/c#d?e' })).toBe(
      '#/versions/snapshots/v%201/a%20b/c%23d%3Fe',
    )
    const targets: BrowseTarget[] = [
      { kind: 'fork', name: 'draft', path: '/' },
      { kind: 'fork', name: 'team/draft', path: '/x/y/z' },
      { kind: 'snapshot', name: '100%', path: '/a b/c#d?e' },
      { kind: 'snapshot', name: 'été', path: '/été/100%' },
    ]
    for (const target of targets)
      expect(versionsRouteFromHash(hashForBrowse(target))).toEqual({ view: 'browse', ...target })
  })
})
