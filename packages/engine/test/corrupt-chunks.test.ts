import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Database, isEngineError } from '../src/index'

/** Flips the byte 10 bytes into the first copy of `marker` among the files of `sub`. */
async function flipIn(dir: string, sub: 'meta' | 'packs', marker: Buffer): Promise<string> {
  for (const name of (await readdir(join(dir, sub))).sort()) {
    const file = join(dir, sub, name)
    const bytes = await readFile(file)
    const at = bytes.indexOf(marker)
    if (at < 0) continue
    bytes[at + 10] = (bytes[at + 10] as number) ^ 0xff
    await writeFile(file, bytes)
    return name
  }
  throw new Error(`marker not found in ${sub}`)
}

describe('a flipped byte in a stored chunk on disk', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-corrupt-chunks-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('is never served, from a pack record or an inline record, and verify names both paths', async () => {
    // Chunks over 16 KiB go to pack files; smaller ones live inline in LevelDB.
    const packed = randomBytes(200_000)
    const inline = randomBytes(5_000)
    let db = await Database.open({ path: dir })
    await db.writeFile('/victims/packed.bin', packed)
    await db.writeFile('/victims/inline.bin', inline)
    await db.writeFile('/bystander.txt', 'fine')
    await db.close()
    // A reopen moves the inline record from LevelDB's log (whose checksum would drop it)
    // into a table, where only the engine's hash notices a flipped byte.
    await (await Database.open({ path: dir })).close()
    expect(await flipIn(dir, 'packs', packed.subarray(100_000, 100_064))).toMatch(/\.pack$/)
    expect(await flipIn(dir, 'meta', inline.subarray(2_000, 2_064))).toMatch(/\.ldb$/)

    db = await Database.open({ path: dir })
    for (const path of ['/victims/packed.bin', '/victims/inline.bin']) {
      const err = await db.readFile(path).catch((e: unknown) => e)
      expect(isEngineError(err, 'CONTENT_CORRUPT'), `${path}: ${String(err)}`).toBe(true)
    }
    expect(new TextDecoder().decode(await db.readFile('/bystander.txt'))).toBe('fine')
    const report = await db.verify()
    expect(report.ok).toBe(false)
    expect(report.missing).toEqual([])
    expect(report.corrupt.map((p) => [p.kind, p.paths]).sort()).toEqual([
      ['chunk', ['/victims/inline.bin']],
      ['chunk', ['/victims/packed.bin']],
    ])
    await db.close()
  })
})
