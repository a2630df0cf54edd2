import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryLevel } from 'memory-level'
import { afterEach, describe, expect, it } from 'vitest'
import { createPackChunkStore } from './chunks/pack-chunk-store'
import { Database } from './database'
import { createLevelMetaStore } from './meta/level-meta-store'

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

async function codeOf(pending: Promise<unknown>): Promise<unknown> {
  return pending.then(
    () => 'resolved',
    (err: { code?: unknown }) => err.code,
  )
}

async function count(keys: AsyncIterable<unknown>): Promise<number> {
  let n = 0
  for await (const _key of keys) n++
  return n
}

/** A metadata store over a memory-level database that survives the store's close. */
async function memoryMeta(level = new MemoryLevel({ keyEncoding: 'view', valueEncoding: 'view' })) {
  if (level.status !== 'open') await level.open()
  return { level, meta: createLevelMetaStore(level) }
}

describe('Database.open({ meta, chunks })', () => {
  const dirs: string[] = []
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
  })

  it('keeps chunks inside `meta` when no `chunks` is given, and reopens on it', async () => {
    const { level, meta } = await memoryMeta()
    const db = await Database.open({ meta })
    const bytes = randomBytes(100_000)
    await db.writeFile('/a.bin', bytes)
    await db.writeFile('/notes.txt', 'hello')
    expect(await count(meta.keys('chunk'))).toBeGreaterThan(0)
    await db.close()

    const again = await Database.open({ meta: (await memoryMeta(level)).meta })
    expect(Buffer.from(await again.readFile('/a.bin')).equals(bytes)).toBe(true)
    expect(text(await again.readFile('/notes.txt'))).toBe('hello')
    expect((await again.verify()).ok).toBe(true)
    await again.close()
  })

  it('keeps chunks in a `chunks` store passed beside `meta`', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svcdb-open-stores-'))
    dirs.push(dir)
    const { level, meta } = await memoryMeta()
    const chunks = await createPackChunkStore({ dir, meta })
    const db = await Database.open({ meta, chunks })
    const bytes = randomBytes(200_000)
    await db.writeFile('/b.bin', bytes)
    expect(await count(meta.keys('chunk'))).toBe(0)
    expect(await count(meta.keys('chunkidx'))).toBeGreaterThan(0)
    expect((await readdir(dir)).length).toBeGreaterThan(0)
    await db.close()

    const reopened = (await memoryMeta(level)).meta
    const again = await Database.open({
      meta: reopened,
      chunks: await createPackChunkStore({ dir, meta: reopened }),
    })
    expect(Buffer.from(await again.readFile('/b.bin')).equals(bytes)).toBe(true)
    await again.close()
  })

  it('closes the stores it was given when the database closes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svcdb-open-stores-'))
    dirs.push(dir)
    const { level, meta } = await memoryMeta()
    const chunks = await createPackChunkStore({ dir, meta })
    const db = await Database.open({ meta, chunks })
    await db.close()
    expect(await codeOf(meta.get('meta', 'x'))).toBe('CLOSED')
    expect(await codeOf(chunks.has(new Uint8Array(32)))).toBe('CLOSED')
    expect(level.status).toBe('closed')
  })

  it('closes the stores it was given when the open fails', async () => {
    const { level, meta } = await memoryMeta()
    await (await Database.open({ meta, hashAlgorithm: 'sha256' })).close()
    const second = (await memoryMeta(level)).meta
    expect(await codeOf(Database.open({ meta: second, hashAlgorithm: 'blake3' }))).toBe('CONFLICT')
    expect(await codeOf(second.get('meta', 'x'))).toBe('CLOSED')
  })

  it('refuses `meta` with `path` or `level`, and `chunks` without `meta`, closing nothing', async () => {
    const { meta } = await memoryMeta()
    const other = await memoryMeta()
    const chunks = await createPackChunkStore({
      dir: await mkdtemp(join(tmpdir(), 'svcdb-open-stores-')).then((dir) => (dirs.push(dir), dir)),
      meta: other.meta,
    })
    const refusals: [string, Promise<Database>][] = [
      ['path', Database.open({ meta, path: join(tmpdir(), 'never-made') })],
      ['level', Database.open({ meta, level: new MemoryLevel() })],
      ['chunks', Database.open({ level: other.level, chunks })],
    ]
    for (const [name, pending] of refusals) {
      const err = await pending.then(
        () => undefined,
        (e: unknown) => e as { code?: unknown; message?: unknown },
      )
      expect(err?.code, name).toBe('INVALID_INPUT')
      expect(String(err?.message), name).toContain(`\`${name}\``)
    }
    expect(await codeOf(meta.get('meta', 'x'))).toBe('resolved')
    expect(await codeOf(chunks.has(new Uint8Array(32)))).toBe('resolved')
    await chunks.close()
    await meta.close()
    await other.meta.close()
  })

  it('still needs one of `path`, `level` and `meta`', async () => {
    await expect(Database.open({})).rejects.toThrow(TypeError)
  })
})
