import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { Database } from '../src/database'
import type { HashAlgorithm } from '../src/hashing/hasher'

const dir = join(import.meta.dirname, 'fixtures', 'archives')

interface Expected {
  v1: string
  v2: string
  v1Files: Record<string, string>
  v2Files: Record<string, string>
}

async function contents(db: Database): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for await (const entry of db.list('/', { depth: -1 })) {
    out[entry.path] = createHash('sha256')
      .update(await db.readFile(entry.path))
      .digest('hex')
  }
  return out
}

// Archives written by earlier releases must keep importing to the same versions, forever.
describe.each(['sha256', 'blake3'] as HashAlgorithm[])('checked-in %s fixture archives', (alg) => {
  it('import to the recorded versions and contents', async () => {
    const expected = (
      JSON.parse(await readFile(join(dir, 'expected.json'), 'utf8')) as Record<string, Expected>
    )[alg] as Expected
    const db = await Database.open({ level: new MemoryLevel(), hashAlgorithm: alg })
    const exported = await db.importArchive(await readFile(join(dir, `${alg}-export-v1.svcdb`)), {
      promote: true,
    })
    expect(exported).toMatchObject({ backupType: 'export', versionHash: expected.v1 })
    expect(await contents(db)).toEqual(expected.v1Files)
    expect(await db.readlink('/data/link')).toBe('../readme.md')
    const patched = await db.importArchive(await readFile(join(dir, `${alg}-patch-v1-v2.svcdb`)), {
      promote: true,
    })
    expect(patched).toMatchObject({
      backupType: 'patch',
      versionHash: expected.v2,
      deletionsApplied: 31,
    })
    expect(await contents(db)).toEqual(expected.v2Files)
    expect((await db.verify()).ok).toBe(true)
    await db.close()
  })
})
