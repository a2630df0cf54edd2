import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import type { Hasher } from '../../hashing/hasher'
import { createLevelMetaStore } from '../../meta/level-meta-store'
import { ObjectStore, WriteSet } from '../../objects/object-store'
import type { ObjectReader } from '../../objects/object-store'
import type { DirEntry } from '../../objects/tree-objects'
import { diffDirectoryPages } from './page-diff'
import { buildDirectory, editDirectory } from './prolly-write'
import { loadPage } from './prolly-read'

const hasher: Hasher = {
  algorithm: 'sha256',
  hashDomain: (domain, bytes) =>
    new Uint8Array(createHash('sha256').update(`${domain}:`).update(bytes).digest()),
  createStream: () => {
    const h = createHash('sha256')
    return { update: (d) => void h.update(d), digest: () => new Uint8Array(h.digest()) }
  },
}

const freshObjects = () =>
  new WriteSet(new ObjectStore(createLevelMetaStore(new MemoryLevel()), hasher, 64 << 20))

function entry(name: string, version = 0): DirEntry {
  const hash = hasher.hashDomain('file', new TextEncoder().encode(`${name}#${version}`))
  return {
    name,
    kind: 'file',
    hash,
    size: 1,
    createdAt: 1,
    updatedAt: 2,
    files: 0,
    dirs: 0,
    links: 0,
  }
}

/** A reader that counts the objects it loads. */
function counting(reader: ObjectReader) {
  const counter = { reads: 0 }
  const wrapped: ObjectReader = {
    get: (hash) => {
      counter.reads++
      return reader.get(hash)
    },
  }
  return { reader: wrapped, counter }
}

async function collect(objects: ObjectReader, a: Uint8Array, b: Uint8Array) {
  const out: string[] = []
  for await (const change of diffDirectoryPages(objects, a, b))
    out.push(`${change.before?.name ?? '-'}>${change.after?.name ?? '-'}`)
  return out
}

describe('diffDirectoryPages', () => {
  it('names exactly the entries added, removed and changed, for random edits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 0, maxLength: 3000 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('add', 'del', 'mod')), { maxLength: 40 }),
        async (names, edits) => {
          const objects = freshObjects()
          const start = buildDirectory(
            objects,
            names.map((n) => entry(n)),
          )
          const changes = new Map<string, DirEntry | null>()
          const expected = new Map<string, string>()
          for (const [n, kind] of edits) {
            const name = kind === 'add' ? `new${n}` : names[n % Math.max(names.length, 1)]
            if (name === undefined || changes.has(name)) continue
            if (kind === 'del') {
              changes.set(name, null)
              expected.set(name, `${name}>-`)
            } else {
              changes.set(name, entry(name, 1))
              expected.set(name, names.includes(name) ? `${name}>${name}` : `-${'>'}${name}`)
            }
          }
          const end = await editDirectory(objects, await loadPage(objects, start), changes)
          const found = await collect(objects, start, end)
          expect(found).toEqual([...expected.keys()].sort().map((k) => expected.get(k)))
        },
      ),
      { numRuns: 60 },
    )
  })

  it('reads a few pages, not the directory, for one edit among 100,000 entries', async () => {
    const objects = freshObjects()
    const names = Array.from({ length: 100_000 }, (_, i) => `f${String(i).padStart(6, '0')}`)
    const start = buildDirectory(
      objects,
      names.map((n) => entry(n)),
    )
    const end = await editDirectory(
      objects,
      await loadPage(objects, start),
      new Map([['f050000', entry('f050000', 1)]]),
    )
    const { reader, counter } = counting(objects)
    expect(await collect(reader, start, end)).toEqual(['f050000>f050000'])
    expect(counter.reads).toBeLessThan(20)
    expect(await collect(objects, start, start)).toEqual([])
  })
})
