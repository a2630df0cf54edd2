import type { ListingPage } from '@svcdb/client'
import type { EntryView } from '@svcdb/contract'

/** A directory's listing as far as it has been paged. */
export interface ListingView {
  /** The entries shown, `undefined` until the first page arrives. */
  entries: EntryView[] | undefined
  /** Entries the caller may see in the whole directory. */
  total: number
  /** The API's cursor after the entries shown, while more remain. */
  next: string | undefined
  loadingMore: boolean
}

/** One page of a listing, as `client.files.listPage` asks for it. */
export type ListPage = (
  dir: string,
  options: { pageSize: number; after?: string; signal?: AbortSignal },
) => Promise<ListingPage>

/** Pages through a directory: a first page, then the next ones after the API's cursor. */
export interface ListingPager {
  /** Forgets what is shown: another directory is on its way. */
  clear(): void
  /** Loads the first `size` entries of `dir` in place of those shown. */
  first(dir: string, size: number, signal: AbortSignal): Promise<void>
  /** Adds the next page of `dir` below the entries shown. */
  more(dir: string, pageSize: number): Promise<void>
}

const EMPTY: ListingView = { entries: undefined, total: 0, next: undefined, loadingMore: false }

/**
 * A pager telling `onChange` every new state. A page that arrives after the listing was
 * cleared or loaded again is dropped, so a slow answer never mixes two directories.
 */
export function createListingPager(
  listPage: ListPage,
  onChange: (view: ListingView) => void,
): ListingPager {
  let view = EMPTY
  /** Bumped by every clear and first page: answers asked for before are stale. */
  let generation = 0
  const set = (patch: Partial<ListingView>) => {
    view = { ...view, ...patch }
    onChange(view)
  }

  return {
    clear() {
      generation++
      set(EMPTY)
    },
    async first(dir, size, signal) {
      const current = ++generation
      try {
        const page = await listPage(dir, { pageSize: size, signal })
        if (signal.aborted || current !== generation) return
        set({ entries: page.items, total: page.total, next: page.next, loadingMore: false })
      } catch (err) {
        if (current === generation) throw err
      }
    },
    async more(dir, pageSize) {
      const { entries, next } = view
      if (entries === undefined || next === undefined || view.loadingMore) return
      const current = generation
      set({ loadingMore: true })
      try {
        const page = await listPage(dir, { after: next, pageSize })
        if (current !== generation) return
        set({ entries: [...entries, ...page.items], total: page.total, next: page.next })
      } catch (err) {
        if (current === generation) throw err
      } finally {
        if (current === generation) set({ loadingMore: false })
      }
    },
  }
}
