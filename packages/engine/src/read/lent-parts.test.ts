import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Database } from '../database'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

let dir: string
let db: Database

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-lent-parts-'))
  db = await Database.open({ path: dir })
})

afterEach(async () => {
  await db.close()
  await rm(dir, { recursive: true, force: true })
})

/** Copies each part before asking for the next, as the contract of lent parts asks. */
async function copied(parts: AsyncGenerator<Uint8Array>) {
  const copies: Buffer[] = []
  const buffers = new Set<ArrayBufferLike>()
  for await (const part of parts) {
    copies.push(Buffer.from(part))
    buffers.add(part.buffer)
  }
  return { bytes: Buffer.concat(copies), buffers }
}

describe('OpenedEntry.parts', () => {
  it('reads large files and ranges byte for byte, reusing its read buffers across files', async () => {
    // Random bytes are stored raw: their parts are views of the buffers the pack was read into.
    const first = pseudoRandomBytes(5 * 1024 * 1024, 1)
    const second = pseudoRandomBytes(5 * 1024 * 1024, 2)
    await db.writeFile('/first.bin', first)
    await db.writeFile('/second.bin', second)
    const one = await copied((await db.view().open('/first.bin')).parts())
    expect(one.bytes.equals(Buffer.from(first))).toBe(true)
    const two = await copied((await db.view().open('/second.bin')).parts())
    expect(two.bytes.equals(Buffer.from(second))).toBe(true)
    // Five windows each, yet a few buffers in all: the second file reused the first's.
    expect(one.buffers.size).toBeLessThanOrEqual(3)
    expect([...two.buffers].some((buffer) => one.buffers.has(buffer))).toBe(true)
    const start = 1_234_567
    const end = 4_321_000
    const ranged = await copied((await db.view().open('/first.bin')).parts({ start, end }))
    expect(ranged.bytes.equals(Buffer.from(first.subarray(start, end + 1)))).toBe(true)
  })

  it('keeps the buffers of a reader that stopped early out of the pool', async () => {
    const content = pseudoRandomBytes(4 * 1024 * 1024, 3)
    await db.writeFile('/big.bin', content)
    const early = (await db.view().open('/big.bin')).parts()
    const held = (await early.next()).value as Uint8Array
    const kept = Buffer.from(held)
    await early.return(undefined)
    // Another reader must not be handed the memory the first still holds a part of.
    const other = await copied((await db.view().open('/big.bin')).parts())
    expect(other.bytes.equals(Buffer.from(content))).toBe(true)
    expect(other.buffers.has(held.buffer)).toBe(false)
    expect(Buffer.from(held).equals(kept)).toBe(true)
  })

  it('gives the same bytes as stream() for compressible content', async () => {
    const text = Buffer.from('a line of text that compresses well\n'.repeat(100_000))
    await db.writeFile('/text.txt', text)
    const opened = await db.view().open('/text.txt')
    expect((await copied(opened.parts())).bytes.equals(text)).toBe(true)
  })
})
