import { EngineError } from '../errors'
import type { Hasher } from '../hashing/hasher'
import { sameBytes, toHex } from '../internal/hex'
import { LruCache } from '../internal/lru-cache'
import type { MetaOp, MetaStore } from '../meta/meta-store'
import { decodeObject, domainOf, encodeObject } from './object-codec'
import { objectWeight } from './object-weight'
import { objectChildren } from './object-children'
import type { TreeObject } from './tree-objects'

/** Reads tree objects by hash. */
export interface ObjectReader {
  get(hash: Uint8Array): Promise<TreeObject>
}

/** Counts object loads that missed the cache, so tests can assert the cost of an operation. */
export interface ObjectStoreCounters {
  loads: number
}

/**
 * Committed tree objects: loads from the metadata store, re-hashes every loaded object (so
 * damaged bytes are refused with `CONTENT_CORRUPT`, never decoded) and keeps decoded objects
 * in an LRU cache. Decoded objects are immutable, so caching them by hash is always correct.
 * The cache is bounded by the memory the decoded objects hold ({@link objectWeight}), not by
 * their encoded size, which is several times smaller.
 */
export class ObjectStore implements ObjectReader {
  private readonly cache: LruCache<string, TreeObject>
  readonly counters: ObjectStoreCounters = { loads: 0 }

  constructor(
    private readonly meta: MetaStore,
    readonly hasher: Hasher,
    cacheBytes: number,
  ) {
    this.cache = new LruCache(cacheBytes)
  }

  async get(hash: Uint8Array): Promise<TreeObject> {
    const cached = this.cache.get(toHex(hash))
    if (cached !== undefined) return cached
    return (await this.load(hash)).object
  }

  /**
   * An object with its stored bytes (always read from storage, for archives and verify);
   * checked against its hash like every load.
   */
  async load(hash: Uint8Array): Promise<{ object: TreeObject; bytes: Uint8Array }> {
    const key = toHex(hash)
    const bytes = await this.meta.get('obj', hash)
    if (bytes === undefined) throw new EngineError('NOT_FOUND', `object ${key} is not stored`)
    this.counters.loads++
    let object: TreeObject
    try {
      object = decodeObject(bytes)
    } catch (err) {
      throw new EngineError('CONTENT_CORRUPT', `stored object ${key} cannot be decoded`, {
        cause: err,
      })
    }
    if (!sameBytes(this.hasher.hashDomain(domainOf(object), bytes), hash)) {
      throw new EngineError('CONTENT_CORRUPT', `stored object ${key} does not match its hash`)
    }
    this.cache.set(key, object, objectWeight(object))
    return { object, bytes }
  }

  /**
   * Many objects at once, `undefined` for those not stored: one batched read for the cache
   * misses, which are checked but not cached (GC marks millions of objects; caching them
   * would only evict the working set).
   */
  async getMany(hashes: readonly Uint8Array[]): Promise<(TreeObject | undefined)[]> {
    const out: (TreeObject | undefined)[] = hashes.map((h) => this.cache.get(toHex(h)))
    const missing: number[] = []
    for (let i = 0; i < out.length; i++) if (out[i] === undefined) missing.push(i)
    if (missing.length === 0) return out
    const values = await this.meta.getMany(
      'obj',
      missing.map((i) => hashes[i] as Uint8Array),
    )
    values.forEach((bytes, j) => {
      if (bytes === undefined) return
      const i = missing[j] as number
      const hash = hashes[i] as Uint8Array
      this.counters.loads++
      let object: TreeObject
      try {
        object = decodeObject(bytes)
      } catch (err) {
        throw new EngineError('CONTENT_CORRUPT', `stored object ${toHex(hash)} cannot be decoded`, {
          cause: err,
        })
      }
      if (!sameBytes(this.hasher.hashDomain(domainOf(object), bytes), hash)) {
        throw new EngineError(
          'CONTENT_CORRUPT',
          `stored object ${toHex(hash)} does not match its hash`,
        )
      }
      out[i] = object
    })
    return out
  }

  /** Forgets cached objects (GC deleted them). */
  evict(keys: Iterable<string>): void {
    for (const key of keys) this.cache.delete(key)
  }

  /** The decoded object if it is in the cache, without I/O. */
  peek(hash: Uint8Array): TreeObject | undefined {
    return this.cache.get(toHex(hash))
  }

  /** Estimated bytes the cached objects hold; never above the cache's budget. */
  get cachedBytes(): number {
    return this.cache.weight
  }

  /** True when the object is stored. */
  async has(hash: Uint8Array): Promise<boolean> {
    return (
      this.cache.get(toHex(hash)) !== undefined || (await this.meta.get('obj', hash)) !== undefined
    )
  }

  /** Makes objects of a committed write set readable from the cache. */
  adopt(objects: Iterable<{ key: string; object: TreeObject; bytes: Uint8Array }>): void {
    for (const o of objects) this.cache.set(o.key, o.object, objectWeight(o.object))
  }
}

/**
 * New objects of one group commit: readable at once by the mutations of the group, written
 * to the store in its batch. A mark/rollback pair drops the objects of a failed mutation.
 */
export class WriteSet implements ObjectReader {
  private readonly objects = new Map<
    string,
    { hash: Uint8Array; object: TreeObject; bytes: Uint8Array }
  >()
  private order: string[] = []

  /**
   * @param base a group still being made durable whose objects this one builds on: read
   *   through until {@link WriteSet.detach} (its objects are then in the store).
   */
  constructor(
    private readonly store: ObjectStore,
    private base?: WriteSet,
  ) {}

  /** Stops reading through the base group, once its batch has committed. */
  detach(): void {
    this.base = undefined
  }

  /** Encodes and hashes an object, keeps it, and returns its hash. */
  put(object: TreeObject): Uint8Array {
    const bytes = encodeObject(object)
    const hash = this.store.hasher.hashDomain(domainOf(object), bytes)
    const key = toHex(hash)
    if (!this.objects.has(key)) {
      this.objects.set(key, { hash, object, bytes })
      this.order.push(key)
    }
    return hash
  }

  get(hash: Uint8Array): Promise<TreeObject> {
    const staged = this.objects.get(toHex(hash))
    if (staged !== undefined) return Promise.resolve(staged.object)
    return this.base === undefined ? this.store.get(hash) : this.base.get(hash)
  }

  mark(): number {
    return this.order.length
  }

  rollback(mark: number): void {
    for (const key of this.order.splice(mark)) this.objects.delete(key)
  }

  get size(): number {
    return this.order.length
  }

  /**
   * Drops the objects no root of `roots` reaches through objects of this set (the pages of
   * versions a group replaced before they were ever durable). Returns how many were dropped.
   */
  retainReachable(roots: readonly Uint8Array[]): number {
    const live = new Set<string>()
    const stack = roots.map(toHex)
    while (stack.length > 0) {
      const key = stack.pop() as string
      if (live.has(key)) continue
      const staged = this.objects.get(key)
      // Not new in this set: stored already (or by the base group), nothing below is new here.
      if (staged === undefined) continue
      live.add(key)
      for (const child of objectChildren(staged.object))
        if (child.isObject) stack.push(toHex(child.hash))
    }
    const dead = this.order.filter((key) => !live.has(key))
    for (const key of dead) this.objects.delete(key)
    this.order = this.order.filter((key) => live.has(key))
    return dead.length
  }

  /** Puts of every kept object, for the group's batch. */
  ops(): MetaOp[] {
    return this.order.map((key) => {
      const o = this.objects.get(key) as { hash: Uint8Array; bytes: Uint8Array }
      return { type: 'put', space: 'obj', key: o.hash, value: o.bytes }
    })
  }

  /** The kept objects, to hand to the store's cache once committed. */
  entries(): { key: string; object: TreeObject; bytes: Uint8Array }[] {
    return this.order.map((key) => {
      const o = this.objects.get(key) as { object: TreeObject; bytes: Uint8Array }
      return { key, object: o.object, bytes: o.bytes }
    })
  }
}
