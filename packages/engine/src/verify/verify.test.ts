import { describe, expect, it } from 'vitest'
import { openMemoryDatabase, rejectsWith } from '../../test/engine-test-kit'
import type { Database } from '../database'
import type { ObjectStore } from '../objects/object-store'
import { parseHash } from '../internal/hex'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

async function damagedDatabase() {
  const kit = await openMemoryDatabase()
  const { db } = kit
  await db.writeFile('/docs/a.bin', pseudoRandomBytes(40_000, 1))
  await db.writeFile('/docs/b.txt', 'bee')
  await db.snapshots.create('s')
  await db.writeFile('/docs/b.txt', 'bee two')
  await db.writeFile('/other.txt', 'other')
  return kit
}

describe('verify', () => {
  it('passes a healthy database, checking every object and chunk once', async () => {
    const { db, countKeys } = await damagedDatabase()
    const result = await db.verify()
    expect(result).toMatchObject({ ok: true, missing: [], corrupt: [] })
    expect(result.checked).toBe((await countKeys('obj')) + (await countKeys('chunk')))
    expect(result.versions).toBeGreaterThanOrEqual(2)
    await db.close()
  })

  it('reports a missing chunk and a damaged object with the paths and versions that reach them', async () => {
    const { db, level } = await damagedDatabase()
    // Remove the chunk of /other.txt, and break the file object of the current /docs/b.txt.
    const chunks = level.sublevel<Uint8Array, Uint8Array>('chunk', {
      keyEncoding: 'view',
      valueEncoding: 'view',
    })
    const objects = level.sublevel<Uint8Array, Uint8Array>('obj', {
      keyEncoding: 'view',
      valueEncoding: 'view',
    })
    const hasher = (await import('../hashing/create-hasher')).createHasher
    const sha = await hasher('sha256')
    const otherChunk = sha.hashDomain('chunk', new TextEncoder().encode('other'))
    await chunks.del(otherChunk)
    const bPath = await findFileObject(db, '/docs/b.txt')
    const stored = (await objects.get(bPath)) as Uint8Array
    const broken = stored.slice()
    broken[broken.length - 1] = (broken[broken.length - 1] as number) ^ 1
    await objects.put(bPath, broken)
    // Reopen so no cache hides the damage.
    await db.close()
    const { Database } = await import('../database')
    const reopened = await Database.open({ level })
    const result = await reopened.verify()
    expect(result.ok).toBe(false)
    expect(result.missing).toEqual([
      expect.objectContaining({ kind: 'chunk', paths: ['/other.txt'], reason: 'not stored' }),
    ])
    expect(result.corrupt).toEqual([
      expect.objectContaining({
        kind: 'object',
        paths: ['/docs/b.txt'],
        versions: [reopened.head()],
      }),
    ])
    // The snapshot's /docs/b.txt is another object and is fine.
    expect(
      new TextDecoder().decode(await reopened.at({ snapshot: 's' }).readFile('/docs/b.txt')),
    ).toBe('bee')
    await reopened.close()
  })

  it('cancels with ABORTED', async () => {
    const { db } = await damagedDatabase()
    const controller = new AbortController()
    controller.abort()
    await rejectsWith(db.verify({ signal: controller.signal }), 'ABORTED')
    await db.close()
  })
})

/** The object id of the file at `path` (its directory entry's hash). */
async function findFileObject(db: Database, path: string): Promise<Uint8Array> {
  const { entryAt } = await import('../read/entry-at')
  const core = (db as unknown as { core: { objects: ObjectStore } }).core
  const entry = await entryAt(core.objects, parseHash(db.head()), path)
  return (entry as { hash: Uint8Array }).hash
}
