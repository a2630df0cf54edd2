import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { toHex } from '../internal/hex'
import { scanBlobChunkCache } from './blob-chunk-cache-scan'

/** Options of {@link createBlobChunkCache}. */
export interface BlobChunkCacheOptions {
  /** The directory the cached records live in (created when missing). */
  dir: string
  /** The most bytes of records kept; least recently used ones are deleted past it. */
  maxBytes: number
}

/**
 * A node-local copy of chunk objects: whole framed records under `<dir>/<2 hex>/<64 hex>`.
 * It verifies nothing (readers check a cached record as they check a fetched one) and fails
 * nothing: a file it cannot read is a miss, one it cannot write is skipped.
 */
export interface BlobChunkCache {
  /** The cached record of `hash`, or `undefined`. The caller owns the bytes. */
  get(hash: Uint8Array): Promise<Uint8Array | undefined>
  /** Keeps a verified record (written once however often asked; `bytes` must not change). */
  fill(hash: Uint8Array, bytes: Uint8Array): void
  /** Deletes the cached record of `hash` (found corrupt). */
  drop(hash: Uint8Array): Promise<void>
  /** Waits for writes and deletions under way; later fills are ignored. */
  close(): Promise<void>
}

/**
 * A {@link BlobChunkCache} on `options.dir`, bounded by `options.maxBytes`. Sizes are kept in
 * memory, rebuilt at open by scanning the directory (oldest files first in line for eviction;
 * leftover temp files deleted). Records are written to a temp name and renamed, without
 * fsync: a torn file after a crash fails its CRC and is fetched again.
 */
export function createBlobChunkCache(options: BlobChunkCacheOptions): BlobChunkCache {
  const { dir, maxBytes } = options
  if (!(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
    throw new RangeError(`cache maxBytes must be a positive integer, got ${maxBytes}`)
  }
  /** Sizes of the cached files, least recently used first (Map keeps insertion order). */
  const sizes = new Map<string, number>()
  let total = 0
  const pending = new Map<string, Promise<void>>()
  let closed = false
  // A directory that cannot be scanned leaves the cache empty: reads go to the blob store.
  const ready = scanBlobChunkCache(dir).then(
    (found) => {
      for (const { name, size } of found) add(name, size)
      evict()
      return true
    },
    () => false,
  )

  const pathOf = (name: string): string => join(dir, name.slice(0, 2), name)

  function add(name: string, size: number): void {
    sizes.set(name, size)
    total += size
  }

  function forget(name: string): boolean {
    const size = sizes.get(name)
    if (size === undefined) return false
    sizes.delete(name)
    total -= size
    return true
  }

  function track(name: string, work: Promise<void>): Promise<void> {
    const done = work.catch(() => undefined).finally(() => pending.delete(name))
    pending.set(name, done)
    return done
  }

  function evict(): void {
    for (const [name] of sizes) {
      if (total <= maxBytes) break
      forget(name)
      void track(`-${name}`, unlink(pathOf(name)))
    }
  }

  return {
    async get(hash) {
      if (!(await ready)) return undefined
      const name = toHex(hash)
      await pending.get(name) // a write under way: wait for it rather than fetch again
      const size = sizes.get(name)
      if (size === undefined) return undefined
      // Most recently used now: to the end of the line.
      sizes.delete(name)
      sizes.set(name, size)
      try {
        return new Uint8Array(await readFile(pathOf(name)))
      } catch {
        forget(name)
        return undefined
      }
    },

    fill(hash, bytes) {
      const name = toHex(hash)
      if (closed || bytes.length > maxBytes || sizes.has(name) || pending.has(name)) return
      const write = async (): Promise<void> => {
        if (!(await ready) || closed) return
        const folder = join(dir, name.slice(0, 2))
        const temp = join(folder, `${name}.tmp-${randomBytes(6).toString('hex')}`)
        try {
          await mkdir(folder, { recursive: true })
          await writeFile(temp, bytes)
          await rename(temp, pathOf(name))
        } catch (err) {
          await unlink(temp).catch(() => undefined)
          throw err
        }
        add(name, bytes.length)
        evict()
      }
      void track(name, write())
    },

    async drop(hash) {
      const name = toHex(hash)
      forget(name)
      await unlink(pathOf(name)).catch(() => undefined)
    },

    async close() {
      closed = true
      await ready
      while (pending.size > 0) await Promise.all(pending.values())
    },
  }
}
