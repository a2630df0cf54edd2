import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Database } from '../database'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { FIRST_WINDOW_BYTES } from './file-content'

let dir: string
let db: Database

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-file-content-'))
  db = await Database.open({ path: dir })
})

afterEach(async () => {
  await db.close()
  await rm(dir, { recursive: true, force: true })
})

async function partsOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = []
  const reader = stream.getReader()
  for (let next = await reader.read(); next.done !== true; next = await reader.read())
    parts.push(next.value)
  return parts
}

describe('readFileContent', () => {
  it('hands on chunks stored back to back as one part per window, with the right bytes', async () => {
    // Random bytes: stored raw, ≈ 16 chunks of the chunker's 64 KiB average.
    const content = pseudoRandomBytes(1024 * 1024, 7)
    await db.writeFile('/big.bin', content)
    const parts = await partsOf((await db.view().open('/big.bin')).stream())
    expect(Buffer.compare(Buffer.concat(parts), content)).toBe(0)
    // One part for the first window (≤ 256 KiB), one for the rest; one a chunk before.
    expect(parts.length).toBeLessThanOrEqual(2)
    expect(parts[0]?.length).toBeLessThanOrEqual(FIRST_WINDOW_BYTES)
  })

  it('serves a range cut inside chunks from the joined parts', async () => {
    const content = pseudoRandomBytes(900_000, 8)
    await db.writeFile('/big.bin', content)
    const opened = await db.view().open('/big.bin')
    for (const [start, end] of [
      [1, 899_998],
      [70_001, 500_003],
      [300_000, 300_000],
    ] as const) {
      const parts = await partsOf(opened.stream({ start, end }))
      expect(Buffer.compare(Buffer.concat(parts), content.subarray(start, end + 1))).toBe(0)
    }
  })

  it('keeps compressed chunks, read as their own buffers, in order between raw ones', async () => {
    // Raw, then text that deflates, then raw again: the inflated chunks are separate buffers.
    const text = new TextEncoder().encode('svcdb stores text well. '.repeat(12_000))
    const content = Buffer.concat([
      pseudoRandomBytes(300_000, 9),
      text,
      pseudoRandomBytes(300_000, 10),
    ])
    await db.writeFile('/mixed.bin', content)
    const parts = await partsOf((await db.view().open('/mixed.bin')).stream())
    expect(Buffer.compare(Buffer.concat(parts), content)).toBe(0)
  })
})
