import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { afterEach, describe, expect, it } from 'vitest'
import { createLevelMetaStore } from './level-meta-store'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function logBytes(dir: string): Promise<number> {
  let total = 0
  for (const name of await readdir(dir))
    if (name.endsWith('.log') && name !== 'LOG') total += (await stat(join(dir, name))).size
  return total
}

describe('level meta store close', () => {
  it('leaves no write-ahead log to replay: what a closed database takes is its data', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svcdb-close-'))
    dirs.push(dir)
    const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, {
      keyEncoding: 'view',
      valueEncoding: 'view',
    })
    await db.open()
    const store = createLevelMetaStore(db)
    const ops = Array.from({ length: 200 }, () => ({
      type: 'put' as const,
      space: 'obj' as const,
      key: randomBytes(32),
      value: randomBytes(16 * 1024),
    }))
    await store.batch(ops, { sync: true })
    // 3.2 MB sit in the memtable and its log, under LevelDB's 4 MiB write buffer.
    expect(await logBytes(dir)).toBeGreaterThan(3_000_000)
    await store.close()
    expect(await logBytes(dir)).toBeLessThan(64 * 1024)
    const reopened = new ClassicLevel<Uint8Array, Uint8Array>(dir, {
      keyEncoding: 'view',
      valueEncoding: 'view',
    })
    const again = createLevelMetaStore(reopened)
    await reopened.open()
    const first = ops[0] as (typeof ops)[number]
    expect(Buffer.compare((await again.get('obj', first.key)) as Uint8Array, first.value)).toBe(0)
    await again.close()
  })
})
