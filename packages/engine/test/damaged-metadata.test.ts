import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, open, readdir, readFile, rm, stat, truncate, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Database, isEngineError } from '../src/index'

/** Files LevelDB writes on every open attempt, even one it refuses (see `isLevelLocked`). */
const OPEN_TRACES = new Set(['meta/LOCK', 'meta/LOG', 'meta/LOG.old'])

/** Every file under `dir` as `path size sha256`, but LevelDB's lock and info log. */
async function listing(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = join(entry.parentPath, entry.name)
    const name = relative(dir, file)
    if (!entry.isFile()) {
      out.push(`${name}/`)
      continue
    }
    if (OPEN_TRACES.has(name)) continue
    const bytes = await readFile(file)
    out.push(`${name} ${bytes.length} ${createHash('sha256').update(bytes).digest('hex')}`)
  }
  return out.sort()
}

async function openError(dir: string): Promise<unknown> {
  return Database.open({ path: dir }).then(
    async (db) => {
      await db.close()
      return undefined
    },
    (e: unknown) => e,
  )
}

async function metaFiles(dir: string, pattern: RegExp): Promise<string[]> {
  return (await readdir(join(dir, 'meta'))).filter((n) => pattern.test(n)).sort()
}

describe('a damaged LevelDB metadata directory', () => {
  let dir: string
  const files = new Map<string, Buffer>()
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-damaged-meta-'))
    files.clear()
    const db = await Database.open({ path: dir })
    for (let i = 0; i < 20; i++) {
      // Small files live inline in LevelDB, larger ones in pack files.
      const bytes = randomBytes(i % 4 === 0 ? 40_000 : 2_000)
      files.set(`/f/${i}.bin`, bytes)
      await db.writeFile(`/f/${i}.bin`, bytes)
    }
    await db.close()
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  async function expectAll(db: Database, except?: string) {
    for (const [path, bytes] of files) {
      if (path === except) continue
      expect(Buffer.from(await db.readFile(path)).equals(bytes), path).toBe(true)
    }
  }

  /** Reopens so LevelDB writes its log into a table, leaving an empty new log. */
  async function compactLog() {
    const db = await Database.open({ path: dir })
    await db.close()
    expect(await metaFiles(dir, /\.ldb$/)).not.toEqual([])
  }

  it('opens after a torn log tail, losing only the last batch, and stays consistent', async () => {
    const [log] = (await metaFiles(dir, /\.log$/)).slice(-1)
    const path = join(dir, 'meta', log as string)
    const { size } = await stat(path)
    // The last batch (the HEAD move of /f/19.bin) is cut in its middle.
    await truncate(path, size - 40)
    const db = await Database.open({ path: dir })
    await expectAll(db, '/f/19.bin')
    const last = await db.readFile('/f/19.bin').then(
      (bytes) => Buffer.from(bytes).equals(files.get('/f/19.bin') as Buffer),
      (e: unknown) => isEngineError(e, 'NOT_FOUND'),
    )
    expect(last).toBe(true)
    expect(await db.verify()).toMatchObject({ ok: true, missing: [], corrupt: [] })
    await db.writeFile('/after.txt', 'written after the damage')
    await db.close()
    const again = await Database.open({ path: dir })
    expect(new TextDecoder().decode(await again.readFile('/after.txt'))).toBe(
      'written after the damage',
    )
    await again.close()
  })

  it('refuses a flipped byte in a table index, naming it and the repair command, and changes nothing', async () => {
    await compactLog()
    const [table] = await metaFiles(dir, /\.ldb$/)
    const path = join(dir, 'meta', table as string)
    const { size } = await stat(path)
    // The footer's index handle points at the index block; flip the byte before the footer's
    // padding: the last byte of the index block's checksum.
    const handle = await open(path, 'r+')
    const byte = Buffer.alloc(1)
    const at = size - 48 - 1
    await handle.read(byte, 0, 1, at)
    byte[0] = (byte[0] as number) ^ 0x40
    await handle.write(byte, 0, 1, at)
    await handle.close()
    const before = await listing(dir)
    const err = await openError(dir)
    expect(isEngineError(err, 'CONTENT_CORRUPT'), String(err)).toBe(true)
    expect((err as Error).message).toContain(`meta/${table as string}`)
    expect((err as Error).message).toContain(`svcdb repair --data ${dir}`)
    expect(await listing(dir)).toEqual(before)
  })

  it('refuses a missing CURRENT, naming it and the repair command, and changes nothing', async () => {
    await compactLog()
    await unlink(join(dir, 'meta', 'CURRENT'))
    const before = await listing(dir)
    const err = await openError(dir)
    expect(isEngineError(err, 'CONTENT_CORRUPT'), String(err)).toBe(true)
    expect((err as Error).message).toContain('meta/CURRENT')
    expect((err as Error).message).toContain(`svcdb repair --data ${dir}`)
    expect(await listing(dir)).toEqual(before)
    // A second attempt is refused alike: nothing was created in the meantime.
    expect(isEngineError(await openError(dir), 'CONTENT_CORRUPT')).toBe(true)
    expect(await listing(dir)).toEqual(before)
  })
})
