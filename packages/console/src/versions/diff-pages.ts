import type { VersionChangeView } from '@svcdb/contract'

/** The two versions a diff compares, as `GET /versions/changes` takes them. */
export interface DiffPair {
  from: string
  to: string
}

/** The changes read so far for one pair, and the API's cursor to the next page. */
export interface DiffResults {
  pair: DiffPair
  items: readonly VersionChangeView[]
  /** Absent once the last page is in. */
  cursor?: string
}

/** What one page request asks for: the pair, and the cursor when it continues `results`. */
export interface DiffRequest {
  pair: DiffPair
  cursor?: string
}

/** A page the API answered. */
export interface DiffPage {
  items: readonly VersionChangeView[]
  cursor: string | null
}

/** True when `a` and `b` compare the same two versions. */
export const samePair = (a: DiffPair, b: DiffPair): boolean => a.from === b.from && a.to === b.to

/** The results to show for `pair`: none when they were read for another pair. */
export function resultsFor(
  results: DiffResults | undefined,
  pair: DiffPair,
): DiffResults | undefined {
  return results !== undefined && samePair(results.pair, pair) ? results : undefined
}

/**
 * The request for the first page of `pair`, or (`more`) for the page after `results`: a
 * cursor is only ever sent with the pair it came from.
 */
export function diffRequest(
  results: DiffResults | undefined,
  pair: DiffPair,
  more: boolean,
): DiffRequest {
  const shown = resultsFor(results, pair)
  if (!more || shown?.cursor === undefined) return { pair }
  return { pair, cursor: shown.cursor }
}

/**
 * The results once `page`, the answer to `request`, arrives while the screen shows `current`.
 * A page for a pair no longer chosen, or one that does not continue the results held (they
 * were started over meanwhile), is dropped: appending it would mix two comparisons.
 */
export function withPage(
  results: DiffResults | undefined,
  request: DiffRequest,
  current: DiffPair,
  page: DiffPage,
): DiffResults | undefined {
  if (!samePair(request.pair, current)) return results
  const cursor = page.cursor === null ? {} : { cursor: page.cursor }
  if (request.cursor === undefined) return { pair: request.pair, items: page.items, ...cursor }
  const held = resultsFor(results, request.pair)
  if (held?.cursor !== request.cursor) return results
  return { pair: request.pair, items: [...held.items, ...page.items], ...cursor }
}
