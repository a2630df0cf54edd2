/**
 * Page boundaries of directory prolly trees. Part of the on-disk format: changing anything
 * here changes every version hash.
 *
 * A name closes a page at height h when its 32-bit key hash is below 2^(32 − 6(h+1)): on
 * average one name in 64 closes a leaf, one in 4,096 closes a page at height 1, and so on.
 * The thresholds nest, so a name closing a page at height h closes one at every lower height,
 * and pages of all heights end on the same names. Boundaries depend on names only, never on
 * entry values or insertion order, which makes the tree a pure function of its entries.
 */
export const BOUNDARY_BITS = 6

/**
 * A page is also cut after this many items, counted from its start, so hostile names that
 * never hash under the threshold cannot build one huge page. The cut depends only on the
 * sorted sequence, so the tree stays canonical.
 */
export const MAX_PAGE_ITEMS = 1024

/** FNV-1a over UTF-16 code units followed by murmur3's 32-bit finaliser. */
export function keyHash32(key: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** True when `key` closes a page at `height`. */
export function closesPage(key: string, height: number): boolean {
  const shift = 32 - BOUNDARY_BITS * (height + 1)
  return shift > 0 && keyHash32(key) < 2 ** shift
}

/** Order of names in directories: UTF-16 code unit order, as JavaScript compares strings. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
