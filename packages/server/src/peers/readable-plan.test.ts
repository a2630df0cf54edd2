import { describe, expect, it } from 'vitest'
import {
  comparePaths,
  isAboveScope,
  isUnderScope,
  missingFrom,
  planSteps,
  sameEntry,
} from './readable-plan'
import type { TreeFacts } from './readable-plan'

const file = (path: string, hash: string, contentType = 'text/plain'): TreeFacts => ({
  path,
  type: 'file',
  hash,
  contentType,
  size: 1,
})
const dir = (path: string, hash = `d${path}`): TreeFacts => ({
  path,
  type: 'directory',
  hash,
  contentType: null,
  size: 0,
})
const link = (path: string, target: string): TreeFacts => ({
  path,
  type: 'symlink',
  hash: `l${path}`,
  contentType: null,
  size: 0,
  target,
})
const byPath = (...entries: TreeFacts[]) => new Map(entries.map((e) => [e.path, e]))

describe('readable-plan scopes', () => {
  it('puts a path under a scope only at or below it, and everything under /', () => {
    expect(isUnderScope('/public', '/public')).toBe(true)
    expect(isUnderScope('/public/a.txt', '/public')).toBe(true)
    expect(isUnderScope('/publicity', '/public')).toBe(false)
    expect(isUnderScope('/private/x', '/')).toBe(true)
  })

  it('sees the strict ancestors of a scope as above it, and nothing above /', () => {
    expect(isAboveScope('/', '/a/b')).toBe(true)
    expect(isAboveScope('/a', '/a/b')).toBe(true)
    expect(isAboveScope('/a/b', '/a/b')).toBe(false)
    expect(isAboveScope('/ab', '/a/b')).toBe(false)
    expect(isAboveScope('/', '/')).toBe(false)
  })

  it('orders paths parents first, segment by segment', () => {
    const sorted = ['/a/b/c', '/a-b', '/a', '/a/b'].sort(comparePaths)
    expect(sorted).toEqual(['/a', '/a/b', '/a/b/c', '/a-b'])
  })
})

describe('sameEntry', () => {
  it('compares files by content hash and content type, symlinks by target, directories by kind', () => {
    expect(sameEntry(file('/f', 'h1'), file('/f', 'h1'))).toBe(true)
    expect(sameEntry(file('/f', 'h1'), file('/f', 'h2'))).toBe(false)
    expect(sameEntry(file('/f', 'h1', 'text/plain'), file('/f', 'h1', 'text/html'))).toBe(false)
    expect(sameEntry(link('/l', '/t'), link('/l', '/t'))).toBe(true)
    expect(sameEntry(link('/l', '/t'), link('/l', '/u'))).toBe(false)
    expect(sameEntry(dir('/d', 'x'), dir('/d', 'y'))).toBe(true)
    expect(sameEntry(dir('/d'), file('/d', 'h'))).toBe(false)
    expect(sameEntry(file('/f', 'h'), undefined)).toBe(false)
  })
})

describe('planSteps', () => {
  it('leaves out what is already here and puts the rest parents first', () => {
    const theirs = [file('/s/b/c.txt', 'new'), dir('/s/b'), file('/s/a.txt', 'same')]
    const ours = byPath(dir('/s/b'), file('/s/a.txt', 'same'))
    expect(planSteps(theirs, ours, [])).toEqual([{ op: 'put', entry: file('/s/b/c.txt', 'new') }])
    expect(planSteps(theirs, new Map(), []).map((s) => s.op === 'put' && s.entry.path)).toEqual([
      '/s/a.txt',
      '/s/b',
      '/s/b/c.txt',
    ])
  })

  it('deletes only what is here, once under a deleted parent, before any put', () => {
    const ours = byPath(dir('/s/old'), file('/s/old/x', 'h'), file('/s/y', 'h'))
    const steps = planSteps([file('/s/z', 'h')], ours, ['/s/old/x', '/s/old', '/s/gone'])
    expect(steps).toEqual([
      { op: 'delete', path: '/s/old' },
      { op: 'put', entry: file('/s/z', 'h') },
    ])
  })

  it('replaces an entry of another kind by deleting it first, and keeps a path the peer still has', () => {
    const ours = byPath(file('/s/d', 'h'), dir('/s/f'), file('/s/f/inner', 'h'))
    const theirs = [dir('/s/d'), file('/s/d/in', 'h'), file('/s/f', 'h2')]
    // `/s/d` is listed as removed and added (a change of kind): deleted once, then made again.
    const steps = planSteps(theirs, ours, ['/s/d'])
    expect(steps).toEqual([
      { op: 'delete', path: '/s/d' },
      { op: 'delete', path: '/s/f' },
      { op: 'put', entry: dir('/s/d') },
      { op: 'put', entry: file('/s/d/in', 'h') },
      { op: 'put', entry: file('/s/f', 'h2') },
    ])
  })

  it('is empty when everything already matches (a repeated apply changes nothing)', () => {
    const theirs = [dir('/s'), file('/s/a', 'h'), link('/s/l', '/s/a')]
    expect(planSteps(theirs, byPath(...theirs), [])).toEqual([])
  })
})

describe('missingFrom', () => {
  it('names what the peer lacks, except below a directory it would not list', () => {
    const ours = byPath(
      dir('/s'),
      file('/s/a', 'h'),
      dir('/s/hidden'),
      file('/s/hidden/x', 'h'),
      file('/s/b', 'h'),
    )
    const theirs = [dir('/s'), file('/s/a', 'h'), dir('/s/hidden')]
    expect(missingFrom(theirs, ours, ['/s/hidden'])).toEqual(['/s/b'])
    expect(missingFrom(theirs, ours)).toEqual(['/s/hidden/x', '/s/b'])
  })
})
