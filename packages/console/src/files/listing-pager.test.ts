import type { ListingPage } from '@svcdb/client'
import type { EntryView } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { createListingPager } from './listing-pager'
import type { ListingView, ListPage } from './listing-pager'

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

const NAMES = Array.from({ length: 45 }, (_, i) => `f${String(i).padStart(2, '0')}`)

/** Pages of NAMES as the API gives them: `after` is the last name shown. */
const listNames: ListPage = (_dir, { pageSize, after }) => {
  const start = after === undefined ? 0 : NAMES.indexOf(after) + 1
  const items = NAMES.slice(start, start + pageSize).map(entry)
  const page: ListingPage = { items, total: NAMES.length, limit: pageSize, offset: 0 }
  if (start + pageSize < NAMES.length) page.next = items.at(-1)?.name
  return Promise.resolve(page)
}

function pagerOver(listPage: ListPage) {
  const seen: ListingView[] = []
  const pager = createListingPager(listPage, (view) => seen.push(view))
  const last = () => seen.at(-1) as ListingView
  const names = () => seen.at(-1)?.entries?.map((e) => e.name)
  return { pager, last, names }
}

describe('listing pager', () => {
  it('shows a first page, then the next ones after the cursor, until none remain', async () => {
    const { pager, last, names } = pagerOver(listNames)
    const signal = new AbortController().signal
    await pager.first('/d', 20, signal)
    expect(names()).toEqual(NAMES.slice(0, 20))
    expect(last()).toMatchObject({ total: 45, next: 'f19', loadingMore: false })
    await pager.more('/d', 20)
    await pager.more('/d', 20)
    expect(names()).toEqual(NAMES)
    expect(last().next).toBeUndefined()
    await pager.more('/d', 20) // nothing more to ask for
    expect(names()).toEqual(NAMES)
  })

  it('drops a page that arrives after the listing was cleared or loaded again', async () => {
    let release: () => void = () => {}
    const slow: ListPage = (dir, options) =>
      options.after === undefined
        ? listNames(dir, options)
        : new Promise((resolve) => {
            release = () => resolve(listNames(dir, options))
          })
    const { pager, last, names } = pagerOver(slow)
    await pager.first('/d', 10, new AbortController().signal)
    const asked = pager.more('/d', 10)
    expect(last().loadingMore).toBe(true)
    pager.clear()
    release()
    await asked
    expect(last()).toEqual({ entries: undefined, total: 0, next: undefined, loadingMore: false })
    expect(names()).toBeUndefined()
  })

  it('drops a first page whose signal fired, and one that a later first page replaced', async () => {
    const { pager, names } = pagerOver(listNames)
    const aborted = new AbortController()
    aborted.abort()
    await pager.first('/d', 5, aborted.signal)
    expect(names()).toBeUndefined()
    const stale = pager.first('/d', 5, new AbortController().signal)
    await pager.first('/d', 30, new AbortController().signal)
    await stale
    expect(names()).toEqual(NAMES.slice(0, 30))
  })

  it('passes on a failure of the current listing only', async () => {
    const failing: ListPage = () => Promise.reject(new Error('refused'))
    const { pager } = pagerOver(failing)
    await expect(pager.first('/d', 5, new AbortController().signal)).rejects.toThrow('refused')
  })
})
