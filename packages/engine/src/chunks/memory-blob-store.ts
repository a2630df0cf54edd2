import { EngineError } from '../errors'
import type { BlobInfo, BlobRange, BlobStore } from './blob-store'

interface Stored {
  bytes: Uint8Array
  modified: number
}

/** Keys compared as S3 compares them: by their UTF-8 bytes, not their UTF-16 code units. */
function byUtf8(a: readonly [Buffer, ...unknown[]], b: readonly [Buffer, ...unknown[]]): number {
  return Buffer.compare(a[0], b[0])
}

/** Throws `RangeError` for a range that is not `0 <= start <= end` in integers. */
function checkRange(range: BlobRange): void {
  const { start, end } = range
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || start > end) {
    throw new RangeError(`a blob range is 0 <= start <= end in integers, got [${start}, ${end})`)
  }
}

/**
 * A {@link BlobStore} in memory, for tests and single-process tools: bytes are copied in and
 * out (callers may change theirs freely), `modified` comes from `Date.now()`. Everything is
 * lost on close.
 *
 * @example
 * const blobs = createMemoryBlobStore()
 * const chunks = createBlobChunkStore({ meta, blobs })
 */
export function createMemoryBlobStore(): BlobStore {
  const objects = new Map<string, Stored>()
  let closed = false

  const assertOpen = (): void => {
    if (closed) throw new EngineError('CLOSED', 'the blob store is closed')
  }

  return {
    async put(key, bytes) {
      assertOpen()
      objects.set(key, { bytes: bytes.slice(), modified: Date.now() })
    },

    async get(key, range) {
      assertOpen()
      if (range !== undefined) checkRange(range)
      const stored = objects.get(key)
      if (stored === undefined) return undefined
      const { bytes } = stored
      return range === undefined ? bytes.slice() : bytes.slice(range.start, range.end)
    },

    async delete(keys) {
      assertOpen()
      for (const key of keys) objects.delete(key)
    },

    async *list(prefix): AsyncGenerator<BlobInfo> {
      assertOpen()
      // A snapshot: deleting or writing while the listing runs leaves it intact.
      const listed: BlobInfo[] = [...objects]
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, stored]): [Buffer, string, Stored] => [Buffer.from(key, 'utf8'), key, stored])
        .sort(byUtf8)
        .map(([, key, { bytes, modified }]) => ({ key, size: bytes.length, modified }))
      for (const info of listed) {
        assertOpen()
        yield info
      }
    },

    async close() {
      closed = true
      objects.clear()
    },
  }
}
