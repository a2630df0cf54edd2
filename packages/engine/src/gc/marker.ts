import { EngineError, throwIfAborted } from '../errors'
import { HashSet } from '../internal/hash-set'
import { parseHash, toHex } from '../internal/hex'
import { objectChildren } from '../objects/object-children'
import type { ObjectStore } from '../objects/object-store'
import type { TreeObject } from '../objects/tree-objects'

/** Objects loaded per batched read while marking. */
const BATCH = 512
/** Batched reads in flight. */
const IN_FLIGHT = 4

/**
 * The mark phase of GC (DESIGN §3.6): every object and chunk reachable from the roots goes
 * into one compact set. Reaching the same subtree twice costs nothing, so marking from many
 * versions that share most of their trees is cheap.
 */
export class Marker {
  /** Reachable object and chunk ids. */
  readonly marked = new HashSet(1 << 16)

  constructor(
    private readonly objects: ObjectStore,
    private readonly signal?: AbortSignal,
    private readonly onProgress?: (marked: number) => void | Promise<void>,
  ) {}

  /** Marks what `roots` reach; a reachable object that is not stored is `CONTENT_CORRUPT`. */
  async mark(roots: Iterable<Uint8Array>): Promise<void> {
    await this.walk(
      [...roots].filter((root) => this.marked.add(root)),
      true,
    )
  }

  /**
   * Marks the pinned hashes of running operations (chunks or objects; some may not be stored
   * yet) and what the stored objects among them reach.
   */
  async markPinned(keys: readonly string[]): Promise<void> {
    const fresh = keys.map(parseHash).filter((hash) => this.marked.add(hash))
    await this.walk(fresh, false)
  }

  private async walk(frontier: Uint8Array[], strict: boolean): Promise<void> {
    let level = frontier
    let lenient = !strict
    while (level.length > 0) {
      const next: Uint8Array[] = []
      const batches: Uint8Array[][] = []
      for (let i = 0; i < level.length; i += BATCH) batches.push(level.slice(i, i + BATCH))
      // A few reads in flight keep the store's threads busy while this one decodes.
      const reads: Promise<(TreeObject | undefined)[]>[] = []
      const startRead = (k: number) => {
        const batch = batches[k]
        if (batch === undefined) return
        const read = this.objects.getMany(batch)
        read.catch(() => undefined)
        reads.push(read)
      }
      for (let k = 0; k < IN_FLIGHT; k++) startRead(k)
      for (let k = 0; k < batches.length; k++) {
        throwIfAborted(this.signal, 'garbage collection')
        const batch = batches[k] as Uint8Array[]
        const loaded = await (reads.shift() as Promise<(TreeObject | undefined)[]>)
        startRead(k + IN_FLIGHT)
        loaded.forEach((object, j) => {
          if (object === undefined) {
            if (lenient) return
            throw new EngineError(
              'CONTENT_CORRUPT',
              `object ${toHex(batch[j] as Uint8Array)} is reachable but not stored; run verify`,
            )
          }
          for (const child of objectChildren(object)) {
            if (this.marked.add(child.hash) && child.isObject) next.push(child.hash)
          }
        })
        await this.onProgress?.(this.marked.size)
      }
      level = next
      // Below a stored object everything must be stored, pinned root or not.
      lenient = false
    }
  }
}
