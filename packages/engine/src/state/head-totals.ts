import type { ObjectStore } from '../objects/object-store'
import { rootPage } from '../objects/root-page'
import { pageTotals } from '../objects/tree-objects'
import type { Totals } from '../objects/tree-objects'

/**
 * The file and byte totals of HEAD's tree, kept current as HEAD moves so stats stay O(1).
 * Only the composition root calls {@link HeadTotals.refresh}, after a group moved HEAD, and
 * {@link HeadTotals.set}, after a reload.
 */
export class HeadTotals {
  #value: Totals

  constructor(
    private readonly objects: ObjectStore,
    private readonly headRoot: () => Uint8Array | undefined,
    initial: Totals,
  ) {
    this.#value = initial
  }

  get value(): Totals {
    return this.#value
  }

  /** Sets totals read for a reloaded HEAD (a shared database's reload). */
  set(value: Totals): void {
    this.#value = value
  }

  /** Recomputes the totals from HEAD's root page (read from the cache when it is there). */
  refresh(): void {
    const head = this.headRoot()
    if (head === undefined) return
    // The new root page was just committed, so it is normally in the cache.
    const cached = this.objects.peek(head)
    if (cached !== undefined && (cached.type === 'leaf' || cached.type === 'node')) {
      this.#value = pageTotals(cached)
      return
    }
    void rootPage(this.objects, head).then(
      (page) => {
        if (this.headRoot() === head) this.#value = pageTotals(page)
      },
      () => undefined,
    )
  }
}
