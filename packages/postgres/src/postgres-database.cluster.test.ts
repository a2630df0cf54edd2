import { randomBytes } from 'node:crypto'
import { Database } from '@svcdb/engine'
import type { Entry } from '@svcdb/engine'
import { describe, expect, it } from 'vitest'
import { createPostgresMetaStore } from './postgres-meta-store'
import { databaseUrl, testSchemas } from './test-schema'

const schema = testSchemas()()
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

async function open(): Promise<Database> {
  // No version log: GC may reclaim what the last write replaced.
  return Database.open({
    meta: await createPostgresMetaStore({ connectionString: databaseUrl(), schema }),
    versionLogLimit: 0,
  })
}

async function collect(entries: AsyncIterable<Entry>): Promise<string[]> {
  const paths: string[] = []
  for await (const entry of entries) paths.push(entry.path)
  return paths
}

describe('Database.open({ meta }) on PostgreSQL', () => {
  it('writes, lists, snapshots, collects garbage, verifies and reads again after a reopen', async () => {
    const big = randomBytes(300_000)
    const replaced = randomBytes(200_000)
    const db = await open()
    await db.writeFile('/docs/a.txt', 'first')
    await db.writeFile('/docs/big.bin', replaced)
    await db.snapshots.create('before')
    await db.writeFile('/docs/a.txt', 'second')
    await db.writeFile('/docs/big.bin', big)
    await db.writeFile('/docs/scratch.bin', randomBytes(100_000))
    await db.delete('/docs/scratch.bin')

    expect(text(await db.readFile('/docs/a.txt'))).toBe('second')
    expect(await collect(db.list('/docs'))).toEqual(['/docs/a.txt', '/docs/big.bin'])
    const changes = (await db.history('/docs/a.txt')).map(
      (item) => item.snapshot ?? item.changeType,
    )
    expect(changes).toContain('before')
    expect(text(await db.at({ snapshot: 'before' }).readFile('/docs/a.txt'))).toBe('first')

    const gc = await db.gc()
    expect(gc.garbageEntries).toBeGreaterThan(0)
    expect((await db.verify()).ok).toBe(true)
    const head = db.head()
    await db.close()

    const again = await open()
    try {
      expect(again.head()).toBe(head)
      expect(Buffer.from(await again.readFile('/docs/big.bin')).equals(big)).toBe(true)
      const before = again.at({ snapshot: 'before' })
      expect(Buffer.from(await before.readFile('/docs/big.bin')).equals(replaced)).toBe(true)
      expect(text(await again.readFile('/docs/a.txt'))).toBe('second')
      expect((await again.verify()).ok).toBe(true)
    } finally {
      await again.close()
    }
  })
})
