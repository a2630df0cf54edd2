import { randomBytes } from 'node:crypto'
import { mkdtemp, open, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Database, isEngineError, repairDatabase } from '../src/index'
import { spawnFixture, waitForLine } from './spawn-fixture'

async function tables(dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'meta'))).filter((n) => n.endsWith('.ldb')).sort()
}

/** Flips the byte 10 bytes into the first copy of `marker` in a metadata table. */
async function flipInTables(dir: string, marker: Buffer): Promise<void> {
  for (const name of await tables(dir)) {
    const file = join(dir, 'meta', name)
    const bytes = await readFile(file)
    const at = bytes.indexOf(marker)
    if (at < 0) continue
    bytes[at + 10] = (bytes[at + 10] as number) ^ 0xff
    await writeFile(file, bytes)
    return
  }
  throw new Error('marker not found in any table')
}

/** Flips the last byte of a table's index block checksum (just before its footer). */
async function breakIndex(file: string): Promise<void> {
  const at = (await stat(file)).size - 48 - 1
  const handle = await open(file, 'r+')
  const byte = Buffer.alloc(1)
  await handle.read(byte, 0, 1, at)
  byte[0] = (byte[0] as number) ^ 0x40
  await handle.write(byte, 0, 1, at)
  await handle.close()
}

describe('repairDatabase', () => {
  let dir: string
  const files = new Map<string, Buffer>()
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-repair-'))
    files.clear()
    const db = await Database.open({ path: dir })
    for (let i = 0; i < 12; i++) {
      const bytes = randomBytes(i % 4 === 0 ? 40_000 : 3_000)
      files.set(`/f/${i}.bin`, bytes)
      await db.writeFile(`/f/${i}.bin`, bytes)
    }
    await db.close()
    // A reopen writes LevelDB's log into a table.
    await (await Database.open({ path: dir })).close()
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('brings back a database whose CURRENT is gone and names the path of a damaged chunk', async () => {
    await unlink(join(dir, 'meta', 'CURRENT'))
    const victim = files.get('/f/1.bin') as Buffer
    await flipInTables(dir, victim.subarray(1000, 1064))
    expect(isEngineError(await Database.open({ path: dir }).catch((e: unknown) => e))).toBe(true)

    const report = await repairDatabase(dir)
    expect(report.unreadableTables).toEqual([])
    expect(report.verify.ok).toBe(false)
    expect(report.lostPaths).toEqual(['/f/1.bin'])

    const db = await Database.open({ path: dir })
    expect(db.head()).toBe(report.head)
    for (const [path, bytes] of files) {
      if (path === '/f/1.bin') continue
      expect(Buffer.from(await db.readFile(path)).equals(bytes), path).toBe(true)
    }
    await expect(db.readFile('/f/1.bin')).rejects.toMatchObject({ code: 'CONTENT_CORRUPT' })
    await db.close()
  })

  it('sets aside a table it cannot read and keeps what the others hold', async () => {
    const older = await tables(dir)
    const db = await Database.open({ path: dir })
    await db.writeFile('/later.txt', 'written after the first table')
    // Closing writes the memtable out: one new table, holding only what this session wrote.
    await db.close()
    const newer = (await tables(dir)).filter((n) => !older.includes(n))
    expect(newer).toHaveLength(1)
    await breakIndex(join(dir, 'meta', newer[0] as string))

    const report = await repairDatabase(dir)
    expect(report.unreadableTables).toEqual([`meta/lost/${newer[0] as string}`])
    expect(report.setAside).toContain(`meta/lost/${newer[0] as string}`)
    expect(report.verify.ok).toBe(true)
    const repaired = await Database.open({ path: dir })
    for (const [path, bytes] of files)
      expect(Buffer.from(await repaired.readFile(path)).equals(bytes), path).toBe(true)
    // What only the unreadable table held is gone, and HEAD is the version before it.
    await expect(repaired.readFile('/later.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await repaired.close()
  })

  it('refuses while another process holds the directory, changing nothing', async () => {
    const holder = spawnFixture('hold-open', [dir])
    try {
      await waitForLine(holder, /^open$/)
      const before = await readdir(join(dir, 'meta'))
      const err = await repairDatabase(dir).catch((e: unknown) => e)
      expect(isEngineError(err, 'LOCKED'), String(err)).toBe(true)
      expect(await readdir(join(dir, 'meta'))).toEqual(before)
    } finally {
      holder.kill('SIGKILL')
      await new Promise((resolve) => holder.once('close', resolve))
    }
  })

  it('refuses a directory that holds no database', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'svcdb-repair-empty-'))
    try {
      const err = await repairDatabase(empty).catch((e: unknown) => e)
      expect(isEngineError(err, 'NOT_FOUND'), String(err)).toBe(true)
      expect(await readdir(empty)).toEqual([])
    } finally {
      await rm(empty, { recursive: true, force: true })
    }
  })
})
