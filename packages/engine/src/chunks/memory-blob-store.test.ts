import { describe, expect, it } from 'vitest'
import { runBlobStoreConformance } from '../testing/blob-store-conformance'
import { createMemoryBlobStore } from './memory-blob-store'

runBlobStoreConformance('memory', async () => {
  const store = createMemoryBlobStore()
  return { store, close: () => store.close() }
})

describe('memory-blob-store', () => {
  it('finishes a listing from the objects there when it started, whatever is deleted meanwhile', async () => {
    const store = createMemoryBlobStore()
    await Promise.all(['a', 'b', 'c'].map((key) => store.put(key, Uint8Array.of(1))))
    const seen: string[] = []
    for await (const { key } of store.list('')) {
      seen.push(key)
      if (key === 'a') await store.delete(['b', 'c'])
    }
    expect(seen).toEqual(['a', 'b', 'c'])
  })
})
