import { randomBytes } from 'node:crypto'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { decodeObject, encodeObject } from './object-codec'
import { objectWeight } from './object-weight'
import type { TreeObject } from './tree-objects'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** Heap and array-buffer bytes held by `n` decoded copies of `object`, per copy. */
function measuredBytes(object: TreeObject, n = 1000): number {
  const bytes = encodeObject(object)
  const kept: TreeObject[] = []
  const used = () => {
    gc()
    const m = process.memoryUsage()
    return m.heapUsed + m.arrayBuffers
  }
  const before = used()
  for (let i = 0; i < n; i++) kept.push(decodeObject(bytes))
  const held = used() - before
  expect(kept).toHaveLength(n)
  return held / n
}

const hash = () => new Uint8Array(randomBytes(32))
const stamps = { createdAt: 1.7e12, updatedAt: 1.7e12 }

const samples: [string, TreeObject][] = [
  [
    'a leaf of 100 files',
    {
      type: 'leaf',
      entries: Array.from({ length: 100 }, (_, i) => ({
        name: `file-${i}.txt`,
        kind: 'file' as const,
        hash: hash(),
        size: 4096,
        ...stamps,
        files: 0,
        dirs: 0,
        links: 0,
      })),
    },
  ],
  [
    'an internal page of 100 items',
    {
      type: 'node',
      height: 1,
      items: Array.from({ length: 100 }, (_, i) => ({
        key: `file-${i}.txt`,
        hash: hash(),
        entries: 1,
        files: 1,
        dirs: 0,
        links: 0,
        bytes: 4096,
      })),
    },
  ],
  [
    'a small file',
    {
      type: 'file',
      size: 4096,
      contentType: 'application/octet-stream',
      contentHash: hash(),
      ...stamps,
      metadata: '',
      chunks: [{ hash: hash(), size: 4096 }],
    },
  ],
  [
    'a chunk list',
    { type: 'list', chunks: Array.from({ length: 64 }, () => ({ hash: hash(), size: 65536 })) },
  ],
]

describe('objectWeight', () => {
  it.each(samples)('weighs %s at least at the memory its decoded form holds', (_, object) => {
    const measured = measuredBytes(object)
    const weight = objectWeight(object)
    // Its encoded size, what the cache used to count, is several times smaller.
    expect(encodeObject(object).length * 3).toBeLessThan(measured)
    expect(weight).toBeGreaterThanOrEqual(measured)
    // An upper estimate, but not so loose that the cache would sit half empty.
    expect(weight).toBeLessThan(measured * 2)
  })
})
