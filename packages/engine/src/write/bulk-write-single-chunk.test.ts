import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHUNK_SIZES } from '../chunking/fastcdc'
import { Database } from '../database'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

const MIN = CHUNK_SIZES.minSize
const text = (size: number) =>
  'lorem ipsum dolor sit amet\n'.repeat(Math.ceil(size / 27)).slice(0, size)

describe('Workspace.writeFiles of single-chunk files', () => {
  it('stores them as writeFile does: same hashes, same bytes, across a reopen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svcdb-bulk-small-'))
    try {
      let db = await Database.open({ path: join(dir, 'db') })
      const sizes = [0, 1, 700, MIN - 1, MIN, MIN + 1, 3 * MIN]
      const contents = sizes.map((size, i) => pseudoRandomBytes(size, 100 + i))
      for (const [i, data] of contents.entries()) await db.writeFile(`/one/${i}`, data)
      await db.writeFiles([
        ...contents.map((data, i) => ({ path: `/bulk/${i}`, data })),
        { path: '/bulk/text', data: text(9000) },
      ])
      await db.writeFile('/one/text', text(9000))
      await db.close()
      db = await Database.open({ path: join(dir, 'db') })
      for (const [i, data] of contents.entries()) {
        const [one, bulk] = [await db.stat(`/one/${i}`), await db.stat(`/bulk/${i}`)]
        expect(bulk.hash).toBe(one.hash)
        expect(Buffer.from(await db.readFile(`/bulk/${i}`)).equals(data)).toBe(true)
      }
      expect((await db.stat('/bulk/text')).hash).toBe((await db.stat('/one/text')).hash)
      await db.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
