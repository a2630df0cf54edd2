import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { afterEach, describe, expect, it } from 'vitest'
import type { DatabaseChange } from '../changes/database-change'
import { Database } from '../database'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-group-'))
  dirs.push(dir)
  return dir
}

/** Number of tree objects a closed database stores. */
async function storedObjects(path: string): Promise<number> {
  const level = new ClassicLevel<Uint8Array, Uint8Array>(join(path, 'meta'), {
    keyEncoding: 'view',
    valueEncoding: 'view',
  })
  let count = 0
  for await (const _ of level
    .sublevel('obj', { keyEncoding: 'view', valueEncoding: 'view' })
    .keys())
    count++
  await level.close()
  return count
}

const text = (i: number) => new TextEncoder().encode(`file number ${i}\n`)

/** `count` writes from `count` concurrent writers, into 4 directories. */
async function concurrentWrites(db: Database, count: number) {
  return Promise.all(
    Array.from({ length: count }, (_, i) => db.writeFile(`/d${i % 4}/f${i}.txt`, text(i))),
  )
}

describe('concurrent writes in one group share one version', () => {
  it('answers every writer with a stored version that holds its file', async () => {
    const path = await tempDir()
    const db = await Database.open({ path })
    const changes: DatabaseChange[] = []
    db.onChange((change) => changes.push(change))
    const results = await concurrentWrites(db, 64)
    const versions = new Set(results.map((r) => r.version))
    // Writers queued together share a version: far fewer versions than writes.
    expect(versions.size).toBeLessThan(results.length / 2)
    for (const result of results) {
      const at = db.at(result.version)
      expect(new TextDecoder().decode(await at.readFile(result.path))).toBe(
        `file number ${result.path.match(/f(\d+)/)?.[1]}\n`,
      )
    }
    // Every version a change names can be read.
    for (const change of changes)
      await expect(db.at(change.version).stat('/')).resolves.toBeDefined()
    expect(results.at(-1)?.version).toBe(db.head())
    await db.close()
  })

  it('stores one set of tree pages per group, not one per write', async () => {
    const together = await tempDir()
    const apart = await tempDir()
    const a = await Database.open({ path: together })
    await concurrentWrites(a, 200)
    await a.close()
    const b = await Database.open({ path: apart })
    for (let i = 0; i < 200; i++) await b.writeFile(`/d${i % 4}/f${i}.txt`, text(i))
    await b.close()
    const grouped = await storedObjects(together)
    const oneByOne = await storedObjects(apart)
    // 200 file objects and a few pages per group, against ≈ 3 pages per write one by one.
    expect(grouped * 2).toBeLessThan(oneByOne)
    const reopened = await Database.open({ path: together })
    expect(await reopened.count('/', { depth: -1 })).toBe(200)
    await reopened.close()
  })
})
