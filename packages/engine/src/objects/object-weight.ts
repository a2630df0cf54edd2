import type { TreeObject } from './tree-objects'

// What a decoded object holds on the V8 heap, measured with heap snapshots on Node 20 (x64):
// a 32-byte hash decoded by `slice()` is a Uint8Array, an ArrayBuffer and its backing store
// (≈ 250 bytes for 32 bytes of data); an entry or item object with its array slot ≈ 90, a
// chunk reference ≈ 35; a string ≈ 24 plus its characters (two bytes each outside Latin-1).
// The figures round up, so the cache errs on the side of holding less than its budget.
const HASH = 280
const RECORD = 100
const CHUNK_REF = HASH + 40
const STRING = 32
/** The object itself, its array, and its cache slot (hex key, map entry, LRU record). */
const OBJECT = 1000

const text = (s: string): number => STRING + 2 * s.length

/**
 * Bytes a decoded tree object keeps alive in memory, an upper estimate. Caches of decoded
 * objects weigh them with this, not with their encoded size: a directory page decodes to
 * about seven times the bytes it takes on disk.
 */
export function objectWeight(object: TreeObject): number {
  switch (object.type) {
    case 'file': {
      const refs = object.chunks?.length ?? object.lists?.length ?? 0
      return OBJECT + HASH + text(object.contentType) + text(object.metadata) + refs * CHUNK_REF
    }
    case 'list':
      return OBJECT + object.chunks.length * CHUNK_REF
    case 'link':
      return OBJECT + text(object.target)
    case 'leaf': {
      let sum = OBJECT
      for (const e of object.entries) sum += HASH + RECORD + text(e.name)
      return sum
    }
    case 'node': {
      let sum = OBJECT
      for (const it of object.items) sum += HASH + RECORD + text(it.key)
      return sum
    }
  }
}
