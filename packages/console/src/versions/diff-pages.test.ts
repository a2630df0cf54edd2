import type { VersionChangeView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { diffRequest, resultsFor, withPage } from './diff-pages'
import type { DiffResults } from './diff-pages'

const added = (path: string): VersionChangeView => ({ path, change: 'added', type: 'file' })
const snapToHead = { from: 'a'.repeat(64), to: 'HEAD' }
const headToSnap = { from: 'HEAD', to: 'a'.repeat(64) }
const firstPage: DiffResults = { pair: snapToHead, items: [added('/a')], cursor: 'c/a' }

describe('diff pages', () => {
  it('asks for the first page without a cursor, and for more with the results’ cursor', () => {
    expect(diffRequest(undefined, snapToHead, false)).toEqual({ pair: snapToHead })
    expect(diffRequest(firstPage, snapToHead, false)).toEqual({ pair: snapToHead })
    expect(diffRequest(firstPage, snapToHead, true)).toEqual({ pair: snapToHead, cursor: 'c/a' })
  })

  it('never sends a cursor with another pair than the one it came from', () => {
    expect(diffRequest(firstPage, headToSnap, true)).toEqual({ pair: headToSnap })
    expect(diffRequest(firstPage, { ...snapToHead, to: 'b'.repeat(64) }, true)).toEqual({
      pair: { ...snapToHead, to: 'b'.repeat(64) },
    })
  })

  it('shows results only for the pair they were read for', () => {
    expect(resultsFor(firstPage, snapToHead)).toBe(firstPage)
    expect(resultsFor(firstPage, headToSnap)).toBeUndefined()
    expect(resultsFor(undefined, snapToHead)).toBeUndefined()
  })

  it('starts over with a first page and appends the next one, keeping the last cursor', () => {
    const first = withPage(undefined, { pair: snapToHead }, snapToHead, {
      items: [added('/a')],
      cursor: 'c/a',
    })
    expect(first).toEqual(firstPage)
    const second = withPage(first, { pair: snapToHead, cursor: 'c/a' }, snapToHead, {
      items: [added('/b')],
      cursor: null,
    })
    expect(second).toEqual({ pair: snapToHead, items: [added('/a'), added('/b')] })
    // A new Compare of the same pair replaces what was read.
    const again = withPage(second, { pair: snapToHead }, snapToHead, {
      items: [added('/z')],
      cursor: null,
    })
    expect(again).toEqual({ pair: snapToHead, items: [added('/z')] })
  })

  it('drops a page that arrives after the pair changed', () => {
    const page = { items: [added('/b')], cursor: null }
    expect(withPage(firstPage, { pair: snapToHead, cursor: 'c/a' }, headToSnap, page)).toBe(
      firstPage,
    )
    expect(withPage(undefined, { pair: snapToHead }, headToSnap, page)).toBeUndefined()
  })

  it('drops a next page that does not continue the results held', () => {
    const page = { items: [added('/b')], cursor: null }
    // Started over meanwhile (the pair changed and came back): nothing to append to.
    expect(withPage(undefined, { pair: snapToHead, cursor: 'c/a' }, snapToHead, page)).toBe(
      undefined,
    )
    const moved = { ...firstPage, cursor: 'c/q' }
    expect(withPage(moved, { pair: snapToHead, cursor: 'c/a' }, snapToHead, page)).toBe(moved)
  })
})
