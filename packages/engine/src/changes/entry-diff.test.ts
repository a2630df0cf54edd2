import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collect, openMemoryDatabase, rejectsWith } from '../../test/engine-test-kit'
import type { Database } from '../database'

let db: Database
beforeEach(async () => {
  db = (await openMemoryDatabase()).db
})
afterEach(() => db.close())

describe('diffEntries', () => {
  it('reports additions, changes, removals and kind changes at the highest path', async () => {
    await db.writeFile('/keep.txt', 'same')
    await db.writeFile('/edit.txt', 'old')
    await db.writeFile('/gone/a.txt', 'a')
    await db.writeFile('/gone/b.txt', 'b')
    await db.writeFile('/deep/x/y.txt', 'y')
    await db.writeFile('/swap', 'file first')
    await db.snapshots.create('before')

    await db.writeFile('/edit.txt', 'new')
    await db.delete('/gone', { recursive: true })
    await db.writeFile('/deep/x/z.txt', 'z')
    await db.writeFile('/fresh/one.txt', '1')
    await db.delete('/swap')
    await db.mkdir('/swap')

    const differences = await collect(db.diffEntries({ from: 'before' }))
    expect(differences).toEqual([
      { change: 'created', path: '/deep/x/z.txt', entryType: 'file' },
      { change: 'modified', path: '/edit.txt', entryType: 'file' },
      { change: 'created', path: '/fresh', entryType: 'directory' },
      { change: 'deleted', path: '/gone', entryType: 'directory' },
      { change: 'deleted', path: '/swap', entryType: 'file' },
      { change: 'created', path: '/swap', entryType: 'directory' },
    ])
    const backwards = await collect(db.diffEntries({ from: db.head(), to: 'before' }))
    expect(backwards.filter((d) => d.change === 'deleted').map((d) => d.path)).toEqual([
      '/deep/x/z.txt',
      '/fresh',
      '/swap',
    ])
    expect(await collect(db.diffEntries({ from: 'before', to: 'before' }))).toEqual([])
    await rejectsWith(collect(db.diffEntries({ from: 'missing' })), 'NOT_FOUND')
  })

  it('names exactly the files that differ, for random edits of random trees', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.stringMatching(/^[a-c]{1,2}(\/[a-c]{1,2}){0,2}$/), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (paths, edits) => {
          const { db: local } = await openMemoryDatabase()
          try {
            // Keep only paths no other path lies below, so every path can be a file.
            const files = paths.filter((p) => !paths.some((q) => q.startsWith(`${p}/`)))
            for (const p of files) await local.writeFile(`/${p}`, p)
            const from = local.head()
            const touched = new Set<string>()
            for (const n of edits) {
              const p = files[n % Math.max(files.length, 1)]
              if (p === undefined) break
              await local.writeFile(`/${p}`, `${p}!${n}`)
              touched.add(`/${p}`)
            }
            const found = await collect(local.diffEntries({ from }))
            expect(found.every((d) => d.change === 'modified')).toBe(true)
            expect(found.map((d) => d.path).sort()).toEqual([...touched].sort())
          } finally {
            await local.close()
          }
        },
      ),
      { numRuns: 40 },
    )
  })
})
