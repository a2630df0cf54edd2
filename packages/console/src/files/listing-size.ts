/** The page sizes a listing offers; the API's own limit is 1 to 10,000 per request. */
export const PAGE_SIZES = [20, 100, 500, 1000] as const

/** Entries per page until the user picks another size. */
export const DEFAULT_PAGE_SIZE = 100

/** Most entries one listing request may ask for (the API's limit). */
const MAX_PAGE_SIZE = 10_000

/**
 * How many entries to ask for when a listing loads again after a change: as many as were
 * shown, so the user keeps their place, within the API's limit.
 */
export function reloadSize(shown: number, pageSize: number): number {
  return Math.min(MAX_PAGE_SIZE, Math.max(pageSize, shown))
}

/** How many entries of how many are shown, in words. */
export function shownSummary(shown: number, total: number): string {
  const noun = total === 1 ? 'entry' : 'entries'
  if (shown < total) return `Showing ${shown} of ${total} ${noun}`
  return total === 1 ? 'Showing 1 entry' : `Showing all ${total} ${noun}`
}
