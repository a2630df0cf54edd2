import type { ListingPage } from '@svcdb/client'
import type { EntryView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { createSourcePager } from './source-listing'
import type { SourceListing } from './source-listing'

const entry = (name: string): EntryView => ({
  path: `/d/${name}`,
  name,
  entry_type: 'file',
  size: 1,
  hash: 'h',
  content_type: 'text/plain',
  created_at: 0,
  updated_at: 0,
})

/** Pages of `names`, `size` at a time, the cursor being the last name given. */
function pagesOf(names: string[], size: number) {
  const asked: (string | undefined)[] = []
  const readPage = (after: string | undefined): Promise<ListingPage> => {
    asked.push(after)
    const start = after === undefined ? 0 : names.indexOf(after) + 1
    const items = names.slice(start, start + size).map(entry)
    const end = start + items.length
    return Promise.resolve({
      items,
      total: names.length,
      limit: size,
      offset: start,
      next: end < names.length ? names[end - 1] : undefined,
    })
  }
  return { readPage, asked }
}

const shown = (listing: SourceListing | undefined) => listing?.entries?.map((e) => e.name)

describe('createSourcePager', () => {
  it('shows the first page, then appends the next ones after the API’s cursor', async () => {
    const { readPage, asked } = pagesOf(['a', 'b', 'c', 'd', 'e'], 2)
    let last: SourceListing | undefined
    const pager = createSourcePager(readPage, new AbortController().signal, (l) => (last = l))
    await pager.first()
    expect(shown(last)).toEqual(['a', 'b'])
    expect(last).toMatchObject({ total: 5, next: 'b', loadingMore: false })
    await pager.more()
    await pager.more()
    expect(shown(last)).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(last).toMatchObject({ next: undefined, loadingMore: false })
    // None remain: nothing more is asked.
    await pager.more()
    expect(asked).toEqual([undefined, 'b', 'd'])
  })

  it('asks for one next page at a time', async () => {
    const { readPage, asked } = pagesOf(['a', 'b', 'c', 'd'], 1)
    const pager = createSourcePager(readPage, new AbortController().signal, () => undefined)
    await pager.first()
    await Promise.all([pager.more(), pager.more()])
    expect(asked).toEqual([undefined, 'a'])
  })

  it('reports nothing once its directory is left', async () => {
    const { readPage } = pagesOf(['a', 'b', 'c'], 1)
    const controller = new AbortController()
    const seen: SourceListing[] = []
    const pager = createSourcePager(readPage, controller.signal, (l) => seen.push(l))
    await pager.first()
    const more = pager.more()
    controller.abort()
    await more
    expect(seen.map(shown)).toEqual([['a'], ['a']])
  })

  it('throws a failed page and is ready to try again', async () => {
    let fail = true
    const { readPage: pages } = pagesOf(['a', 'b'], 1)
    const readPage = (after: string | undefined) =>
      after !== undefined && fail ? Promise.reject(new Error('boom')) : pages(after)
    let last: SourceListing | undefined
    const pager = createSourcePager(readPage, new AbortController().signal, (l) => (last = l))
    await pager.first()
    await expect(pager.more()).rejects.toThrow('boom')
    expect(last).toMatchObject({ loadingMore: false, next: 'a' })
    fail = false
    await pager.more()
    expect(shown(last)).toEqual(['a', 'b'])
  })
})
