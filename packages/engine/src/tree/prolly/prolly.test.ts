import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import type { Hasher } from '../../hashing/hasher'
import { toHex } from '../../internal/hex'
import { createLevelMetaStore } from '../../meta/level-meta-store'
import { ObjectStore, WriteSet } from '../../objects/object-store'
import type { DirEntry } from '../../objects/tree-objects'
import { pageTotals } from '../../objects/tree-objects'
import { closesPage } from './boundary'
import { iterateEntries, loadPage, lookupEntry } from './prolly-read'
import { buildDirectory, editDirectory } from './prolly-write'

// A plain SHA-256 hasher, enough to address pages in these tests.
const hasher: Hasher = {
  algorithm: 'sha256',
  hashDomain: (domain, bytes) =>
    new Uint8Array(createHash('sha256').update(`${domain}:`).update(bytes).digest()),
  createStream: () => {
    const h = createHash('sha256')
    return { update: (d) => void h.update(d), digest: () => new Uint8Array(h.digest()) }
  },
}

function freshObjects(): WriteSet {
  const store = new ObjectStore(createLevelMetaStore(new MemoryLevel()), hasher, 64 << 20)
  return new WriteSet(store)
}

function entry(name: string, size = name.length): DirEntry {
  const hash = hasher.hashDomain('file', new TextEncoder().encode(name))
  return { name, kind: 'file', hash, size, createdAt: 1, updatedAt: 2, files: 0, dirs: 0, links: 0 }
}

async function applyAll(
  objects: WriteSet,
  start: Uint8Array,
  batches: Map<string, DirEntry | null>[],
) {
  let root = start
  for (const batch of batches)
    root = await editDirectory(objects, await loadPage(objects, root), batch)
  return root
}

async function names(objects: WriteSet, root: Uint8Array, after?: string): Promise<string[]> {
  const out: string[] = []
  for await (const e of iterateEntries(objects, await loadPage(objects, root), after))
    out.push(e.name)
  return out
}

const nameArb = fc.string({ minLength: 1, maxLength: 12 })

describe('prolly directories', () => {
  it('give equal hashes for equal entries whatever the order and batching of writes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(nameArb, { minLength: 0, maxLength: 1500, size: 'max' }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer(),
        async (all, batchSize, seed) => {
          const objects = freshObjects()
          const expected = buildDirectory(
            objects,
            all.map((n) => entry(n)),
          )
          const shuffled =
            fc.sample(fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }), {
              seed,
              numRuns: 1,
            })[0] ?? []
          const batches: Map<string, DirEntry | null>[] = []
          for (let i = 0; i < shuffled.length; i += batchSize) {
            batches.push(new Map(shuffled.slice(i, i + batchSize).map((n) => [n, entry(n)])))
          }
          const root = await applyAll(objects, buildDirectory(objects, []), batches)
          expect(toHex(root)).toBe(toHex(expected))
        },
      ),
      { numRuns: 60 },
    )
  })

  it('stay canonical through mixed inserts, updates and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom('put', 'del'),
            fc.integer({ min: 0, max: 2000 }),
            fc.integer({ min: 0, max: 9 }),
          ),
          { minLength: 20, maxLength: 300, size: 'max' },
        ),
        fc.uniqueArray(fc.integer({ min: 0, max: 2000 }), {
          minLength: 200,
          maxLength: 1500,
          size: 'max',
        }),
        async (ops, initial) => {
          const objects = freshObjects()
          const model = new Map(initial.map((i) => [`n${i}`, entry(`n${i}`)]))
          let root = buildDirectory(objects, [...model.values()])
          for (const [op, i, size] of ops) {
            const name = `n${i}`
            const value = op === 'put' ? entry(name, size) : null
            if (value === null) model.delete(name)
            else model.set(name, value)
            root = await editDirectory(
              objects,
              await loadPage(objects, root),
              new Map([[name, value]]),
            )
          }
          expect(toHex(root)).toBe(toHex(buildDirectory(objects, [...model.values()])))
          expect(await names(objects, root)).toEqual([...model.keys()].sort())
        },
      ),
      { numRuns: 40 },
    )
  })

  it('merges a page with the next when the name that closed it is deleted', async () => {
    const objects = freshObjects()
    const all = Array.from({ length: 3000 }, (_, i) => `n${i}`)
    const closing = all.filter((n) => closesPage(n, 0))
    expect(closing.length).toBeGreaterThan(10)
    let root = buildDirectory(
      objects,
      all.map((n) => entry(n)),
    )
    const remaining = new Set(all)
    for (const victim of closing.slice(0, 10)) {
      remaining.delete(victim)
      root = await editDirectory(objects, await loadPage(objects, root), new Map([[victim, null]]))
      expect(toHex(root)).toBe(
        toHex(
          buildDirectory(
            objects,
            [...remaining].map((n) => entry(n)),
          ),
        ),
      )
    }
  })

  it('handles a large directory of several heights, with lookups, ordered iteration and totals', async () => {
    const objects = freshObjects()
    const all = Array.from({ length: 30_000 }, (_, i) => `file-${(i * 7919) % 30_000}`)
    const root = buildDirectory(
      objects,
      all.map((n) => entry(n, 3)),
    )
    const page = await loadPage(objects, root)
    expect(page.type).toBe('node')
    if (page.type === 'node') expect(page.height).toBeGreaterThanOrEqual(2)
    expect(pageTotals(page)).toMatchObject({ entries: 30_000, files: 30_000, bytes: 90_000 })
    expect((await lookupEntry(objects, page, 'file-12345'))?.name).toBe('file-12345')
    expect(await lookupEntry(objects, page, 'file-x')).toBeUndefined()
    const sorted = [...all].sort()
    expect(await names(objects, root)).toEqual(sorted)
    expect(await names(objects, root, 'file-2')).toEqual(sorted.filter((n) => n > 'file-2'))
  })

  it('rewrites only the pages on the path of an edit', async () => {
    const objects = freshObjects()
    const root = buildDirectory(
      objects,
      Array.from({ length: 100_000 }, (_, i) => entry(`e${i}`)),
    )
    const height = ((await loadPage(objects, root)) as { height: number }).height
    for (const name of ['e5', 'e77777', 'new-entry', 'e99999']) {
      const before = objects.size
      await editDirectory(
        objects,
        await loadPage(objects, root),
        new Map([[name, entry(name, 42)]]),
      )
      // One page per height, plus at most one neighbour when a cut moves.
      expect(objects.size - before).toBeLessThanOrEqual(2 * (height + 1))
    }
  })

  it('cuts pages of hostile names that never close a page at the item limit', async () => {
    const objects = freshObjects()
    const hostile: string[] = []
    for (let i = 0; hostile.length < 3000; i++) if (!closesPage(`h${i}`, 0)) hostile.push(`h${i}`)
    const root = await loadPage(
      objects,
      buildDirectory(
        objects,
        hostile.map((n) => entry(n)),
      ),
    )
    expect(root.type).toBe('node')
    if (root.type === 'node')
      for (const item of root.items) expect(item.entries).toBeLessThanOrEqual(1024)
  })

  it('empties back to the empty directory', async () => {
    const objects = freshObjects()
    const all = Array.from({ length: 5000 }, (_, i) => `x${i}`)
    const root = buildDirectory(
      objects,
      all.map((n) => entry(n)),
    )
    const emptied = await editDirectory(
      objects,
      await loadPage(objects, root),
      new Map(all.map((n) => [n, null])),
    )
    expect(toHex(emptied)).toBe(toHex(buildDirectory(objects, [])))
  })
})
