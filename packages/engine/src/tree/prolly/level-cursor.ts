import type { ObjectReader } from '../../objects/object-store'
import type { DirPage } from '../../objects/tree-objects'
import { childIndex, loadPage } from './prolly-read'

type NodePage = DirPage & { type: 'node' }

/**
 * Walks the pages of one height of a prolly tree in order, loading pages on demand: `seek`
 * finds the page whose range holds a key, `next` moves to the following page at that height.
 */
export class LevelCursor {
  // The internal pages above the current page, with the index taken in each.
  private path: { page: NodePage; index: number }[] = []
  private current: DirPage | undefined

  constructor(
    private readonly reader: ObjectReader,
    private readonly root: DirPage,
    private readonly height: number,
  ) {}

  /** Positions the cursor on the page at its height whose range holds `key`. */
  async seek(key: string): Promise<DirPage> {
    this.path = []
    let page = this.root
    while (pageHeight(page) > this.height) {
      const node = page as NodePage
      const index = childIndex(node, key)
      this.path.push({ page: node, index })
      page = await loadPage(this.reader, (node.items[index] as { hash: Uint8Array }).hash)
    }
    this.current = page
    return page
  }

  /** The page after the current one at the same height, without moving; `undefined` at the end. */
  async peekNext(): Promise<DirPage | undefined> {
    const saved = { path: this.path.map((p) => ({ ...p })), current: this.current }
    const next = await this.next()
    this.path = saved.path
    this.current = saved.current
    return next
  }

  /** Moves to the next page at the same height; `undefined` (and no move) at the end. */
  async next(): Promise<DirPage | undefined> {
    let level = this.path.length - 1
    while (
      level >= 0 &&
      (this.path[level] as { index: number }).index + 1 >=
        (this.path[level] as { page: NodePage }).page.items.length
    ) {
      level--
    }
    if (level < 0) return undefined
    const path = this.path.slice(0, level + 1)
    const top = path[level] as { page: NodePage; index: number }
    top.index++
    let page = await loadPage(this.reader, (top.page.items[top.index] as { hash: Uint8Array }).hash)
    while (pageHeight(page) > this.height) {
      const node = page as NodePage
      path.push({ page: node, index: 0 })
      page = await loadPage(this.reader, (node.items[0] as { hash: Uint8Array }).hash)
    }
    this.path = path
    this.current = page
    return page
  }
}

/** Height of a page: 0 for leaves. */
export function pageHeight(page: DirPage): number {
  return page.type === 'leaf' ? 0 : page.height
}
