import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { PackFile } from './pack-file'
import { nodePackFileSystem } from './pack-file-system'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

async function newPack(bytes: Uint8Array): Promise<PackFile> {
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-pack-file-'))
  dirs.push(dir)
  const pack = await PackFile.create(nodePackFileSystem, dir, 1)
  await pack.write([bytes], 0)
  pack.size = bytes.length
  return pack
}

describe('pack-file', () => {
  it('lets reads in flight finish before a retired pack closes', async () => {
    const bytes = pseudoRandomBytes(4 * 1024 * 1024, 1)
    const pack = await newPack(bytes)
    // Asking past the end takes a second positional read, after the first one returned.
    const reads = [pack.read(0, bytes.length + 100), pack.read(1000, 5000)]
    let closed = false
    const retiring = pack.retire().then(() => (closed = true))
    const [whole, part] = await Promise.all(reads)
    expect(Buffer.compare(whole as Uint8Array, bytes)).toBe(0)
    expect(Buffer.compare(part as Uint8Array, bytes.subarray(1000, 6000))).toBe(0)
    await retiring
    expect(closed).toBe(true)
    await expect(pack.read(0, 10)).rejects.toThrow()
  })

  it('closes a retired pack at once when nothing reads it', async () => {
    const pack = await newPack(pseudoRandomBytes(100, 2))
    await pack.read(0, 100)
    await pack.retire()
    await expect(pack.read(0, 10)).rejects.toThrow()
  })
})
