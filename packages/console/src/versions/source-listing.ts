import type { ListingPage } from '@svcdb/client'
import type { EntryView } from '@svcdb/contract'

/** One directory of a fork or snapshot as far as it has been paged. */
export interface SourceListing {
  /** The entries shown, `undefined` until the first page arrives. */
  entries: EntryView[] | undefined
  /** Entries the caller may see in the whole directory. */
  total: number
  /** The API's cursor after the entries shown, while more remain. */
  next: string | undefined
  loadingMore: boolean
}

/** Reads the page after cursor `after` (the first page when `undefined`). */
export type ReadPage = (after: string | undefined, signal: AbortSignal) => Promise<ListingPage>

/** Loads the first page of one directory, then the next ones on demand. */
export interface SourcePager {
  first(): Promise<void>
  /** Adds the next page below the entries shown; nothing while one is on its way or none remain. */
  more(): Promise<void>
}

/** A listing before its first page. */
export const EMPTY_LISTING: SourceListing = {
  entries: undefined,
  total: 0,
  next: undefined,
  loadingMore: false,
}

/**
 * A pager over one directory, telling `onChange` every new state. Once `signal` aborts (the
 * user went to another directory) it reports nothing more, so a slow page never lands in the
 * listing of another directory. Failures are thrown to the caller.
 */
export function createSourcePager(
  readPage: ReadPage,
  signal: AbortSignal,
  onChange: (listing: SourceListing) => void,
): SourcePager {
  let listing = EMPTY_LISTING
  const set = (patch: Partial<SourceListing>) => {
    if (signal.aborted) return
    listing = { ...listing, ...patch }
    onChange(listing)
  }

  return {
    async first() {
      const page = await readPage(undefined, signal)
      set({ entries: page.items, total: page.total, next: page.next, loadingMore: false })
    },
    async more() {
      const { entries, next } = listing
      if (entries === undefined || next === undefined || listing.loadingMore) return
      set({ loadingMore: true })
      try {
        const page = await readPage(next, signal)
        set({ entries: [...entries, ...page.items], total: page.total, next: page.next })
      } finally {
        set({ loadingMore: false })
      }
    },
  }
}
