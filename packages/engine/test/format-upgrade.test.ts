import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CHUNK_CODEC } from '../src/chunks/chunk-codec'
import { RECORD_MAGIC } from '../src/chunks/chunk-record'
import { openDatabaseOnStorage } from '../src/database'
import { DATABASE_FORMAT_VERSION } from '../src/state/format-record'
import { Database, isEngineError } from '../src/index'
import { openDiskStorage } from '../src/storage/open-storage'

/** Text that compresses, `length` bytes of it, different for each seed. */
function text(length: number, seed: number): Uint8Array {
  let out = ''
  for (let i = 0; out.length < length; i++) out += `line ${i * seed} of file ${seed}: a hash tree\n`
  return new TextEncoder().encode(out.slice(0, length))
}

/** The codec bytes of every record in the database's pack files. */
async function packCodecs(dir: string): Promise<Set<number>> {
  const codecs = new Set<number>()
  const packs = join(dir, 'packs')
  for (const name of await readdir(packs)) {
    const bytes = await readFile(join(packs, name))
    for (let at = bytes.indexOf(RECORD_MAGIC); at !== -1; at = bytes.indexOf(RECORD_MAGIC, at + 1))
      codecs.add(bytes[at + 36] as number)
  }
  return codecs
}

/** Rewrites the format record's version, as an older engine would have left it. */
async function setFormatVersion(dir: string, version: number): Promise<void> {
  const storage = await openDiskStorage(dir)
  const format = JSON.parse(
    new TextDecoder().decode(await storage.meta.get('meta', 'format')),
  ) as Record<string, unknown>
  const value = new TextEncoder().encode(JSON.stringify({ ...format, formatVersion: version }))
  await storage.meta.batch([{ type: 'put', space: 'meta', key: 'format', value }], { sync: true })
  await storage.chunks.close()
  await storage.meta.close()
}

async function formatVersion(dir: string): Promise<number> {
  const storage = await openDiskStorage(dir)
  try {
    const bytes = await storage.meta.get('meta', 'format')
    return (JSON.parse(new TextDecoder().decode(bytes)) as { formatVersion: number }).formatVersion
  } finally {
    await storage.chunks.close()
    await storage.meta.close()
  }
}

describe('database format 2 (Brotli chunks)', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-format-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('opens a format 1 database, reads its DEFLATE chunks, raises it to format 2 and adds Brotli ones', async () => {
    const old = text(400_000, 1)
    // A database as format 1 wrote it: large chunks DEFLATEd, the format record saying 1.
    const first = await openDatabaseOnStorage(
      await openDiskStorage(dir, { compression: { large: 'deflateRaw' } }),
    )
    await first.writeFile('/old.txt', old)
    await first.close()
    await setFormatVersion(dir, 1)
    expect(await packCodecs(dir)).toEqual(new Set([CHUNK_CODEC.deflateRaw]))

    const db = await Database.open({ path: dir })
    const added = text(400_000, 2)
    await db.writeFile('/new.txt', added)
    expect(Buffer.from(await db.readFile('/old.txt')).equals(old)).toBe(true)
    expect(Buffer.from(await db.readFile('/new.txt')).equals(added)).toBe(true)
    const report = await db.verify()
    expect(report.ok).toBe(true)
    expect(report.corrupt).toEqual([])
    await db.close()

    expect(DATABASE_FORMAT_VERSION).toBe(2)
    expect(await formatVersion(dir)).toBe(2)
    expect(await packCodecs(dir)).toEqual(new Set([CHUNK_CODEC.deflateRaw, CHUNK_CODEC.brotli]))
    // And both still read after a restart.
    const again = await Database.open({ path: dir })
    expect(Buffer.from(await again.readFile('/old.txt')).equals(old)).toBe(true)
    expect(Buffer.from(await again.readFile('/new.txt')).equals(added)).toBe(true)
    await again.close()
  })

  it('refuses a database of a newer format with CONFLICT and leaves it as it was', async () => {
    const db = await Database.open({ path: dir })
    await db.writeFile('/kept.txt', 'kept')
    await db.close()
    await setFormatVersion(dir, DATABASE_FORMAT_VERSION + 1)

    const err = await Database.open({ path: dir }).catch((e: unknown) => e)
    expect(isEngineError(err, 'CONFLICT')).toBe(true)
    expect((err as Error).message).toMatch(/newer than this engine supports/)
    expect(await formatVersion(dir)).toBe(DATABASE_FORMAT_VERSION + 1)
  })
})
