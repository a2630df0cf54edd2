import { randomBytes } from 'node:crypto'
import { mkdtemp, open, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Database, isEngineError } from '../src/index'
import { spawnFixture, waitForLine } from './spawn-fixture'

describe('Database on disk', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-disk-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('keeps files, versions and counters across reopen', async () => {
    const big = randomBytes(1_500_000)
    let db = await Database.open({ path: dir })
    await db.writeFile('/a/big.bin', big)
    const v1 = (await db.writeFile('/a/small.txt', 'one')).version
    await db.writeFile('/a/small.txt', 'two')
    const head = db.head()
    const stats = db.stats()
    await db.close()

    db = await Database.open({ path: dir })
    expect(db.head()).toBe(head)
    expect(Buffer.from(await db.readFile('/a/big.bin')).equals(big)).toBe(true)
    expect(new TextDecoder().decode(await db.at(v1).readFile('/a/small.txt'))).toBe('one')
    expect(db.stats().counts).toEqual(stats.counts)
    expect(db.stats().sizes.chunkData).toBe(stats.sizes.chunkData)
    await db.close()
  })

  it('refuses a directory held by another process with LOCKED and leaves it untouched', async () => {
    const db = await Database.open({ path: dir })
    await db.writeFile('/x', 'kept')
    await db.close()
    const holder = spawnFixture('hold-open', [dir])
    try {
      await waitForLine(holder, /^open$/)
      const before = await readdir(dir)
      const err = await Database.open({ path: dir }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(isEngineError(err, 'LOCKED')).toBe(true)
      expect((err as Error).message).toMatch(/locked/)
      expect(await readdir(dir)).toEqual(before)
    } finally {
      holder.kill('SIGKILL')
      await new Promise((resolve) => holder.once('close', resolve))
    }
    const again = await Database.open({ path: dir })
    expect(new TextDecoder().decode(await again.readFile('/x'))).toBe('kept')
    await again.close()
  })

  it('detects a flipped byte in a stored chunk on read and never serves it', async () => {
    const content = randomBytes(200_000)
    let db = await Database.open({ path: dir })
    await db.writeFile('/victim.bin', content)
    await db.writeFile('/bystander.txt', 'fine')
    await db.close()

    const packDir = join(dir, 'packs')
    const [pack] = (await readdir(packDir)).filter((f) => f.endsWith('.pack'))
    const path = join(packDir, pack as string)
    const handle = await open(path, 'r+')
    const at = Math.floor((await stat(path)).size / 3)
    const byte = Buffer.alloc(1)
    await handle.read(byte, 0, 1, at)
    byte[0] = (byte[0] as number) ^ 0xff
    await handle.write(byte, 0, 1, at)
    await handle.close()

    db = await Database.open({ path: dir })
    const err = await db.readFile('/victim.bin').then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isEngineError(err, 'CONTENT_CORRUPT')).toBe(true)
    expect(new TextDecoder().decode(await db.readFile('/bystander.txt'))).toBe('fine')
    await db.close()
  })

  it('keeps snapshots, forks, imported versions and the version log across reopen', async () => {
    let db = await Database.open({ path: dir })
    await db.writeFile('/doc.txt', 'one')
    await db.snapshots.create('s1', { metadata: { why: 'test' } })
    await db.forks.create('f')
    await db.fork('f').writeFile('/fork.txt', 'fork')
    await db.writeFile('/doc.txt', 'two')
    const parts: Uint8Array[] = []
    const other = await Database.open({ path: join(dir, 'other') })
    await other.writeFile('/imported.txt', 'elsewhere')
    for await (const part of other.exportArchive()) parts.push(part)
    const importedVersion = other.head()
    await other.close()
    await db.importArchive(Buffer.concat(parts))
    const history = await db.history('/doc.txt')
    const snapshots = await db.snapshots.list()
    const forks = await db.forks.list()
    await db.close()

    db = await Database.open({ path: dir })
    expect(await db.snapshots.list()).toEqual(snapshots)
    expect(snapshots[0]).toMatchObject({ name: 's1', metadata: { why: 'test' } })
    expect(await db.forks.list()).toEqual(forks)
    expect(new TextDecoder().decode(await db.fork('f').readFile('/fork.txt'))).toBe('fork')
    expect(await db.history('/doc.txt')).toEqual(history)
    expect(db.stats().counts).toMatchObject({ snapshots: 1, forks: 1 })
    await db.gc()
    await db.promote(importedVersion)
    expect(new TextDecoder().decode(await db.readFile('/imported.txt'))).toBe('elsewhere')
    expect((await db.verify()).ok).toBe(true)
    await db.close()
  })
})
