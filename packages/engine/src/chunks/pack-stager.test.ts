import { afterEach, describe, expect, it } from 'vitest'
import { createHasher } from '../hashing/create-hasher'
import type { MetaOp } from '../meta/meta-store'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { RECORD_HEADER_LENGTH } from './chunk-record'
import {
  cleanUpPackFixtures,
  newPackDir,
  openPackFixture,
} from '../../test/support/pack-store-fixture'

afterEach(cleanUpPackFixtures)

const hasher = await createHasher('sha256')
const item = (bytes: Uint8Array) => ({ hash: hasher.hashDomain('chunk', bytes), bytes })

describe('pack stageMany', () => {
  it('appends the records of each call side by side, even when calls run concurrently', async () => {
    const f = await openPackFixture(await newPackDir())
    const calls = [0, 1, 2].map((c) =>
      Array.from({ length: 5 }, (_, i) => item(pseudoRandomBytes(20_000 + i * 997, c * 10 + i))),
    )
    // One stage of a single chunk lands between them too.
    const lone = item(pseudoRandomBytes(30_000, 99))
    const results = await Promise.all([
      ...calls.map((items) => f.store.stageMany!(items)),
      f.store.stage(lone.hash, lone.bytes).then((r) => [r]),
    ])
    const ops: MetaOp[] = results.flat().flatMap((r) => r.ops)
    await f.meta.batch([...ops, ...(await f.store.flush())], { sync: true })
    f.store.committed()
    for (const [c, items] of calls.entries()) {
      expect(results[c]!.map((r) => r.isNew)).toEqual(items.map(() => true))
      const at = await Promise.all(items.map(({ hash }) => f.location(hash)))
      for (let i = 1; i < at.length; i++) {
        expect(at[i]!.offset).toBe(
          at[i - 1]!.offset + RECORD_HEADER_LENGTH + at[i - 1]!.storedLength,
        )
      }
      for (const { hash, bytes } of items) expect(await f.store.read(hash)).toEqual(bytes)
    }
  })

  it('stores a chunk repeated within a call, or already stored, once', async () => {
    const f = await openPackFixture(await newPackDir())
    const a = item(pseudoRandomBytes(20_000, 1))
    const b = item(pseudoRandomBytes(20_000, 2))
    const first = await f.store.stageMany!([a, a])
    expect(first.map((r) => r.isNew)).toEqual([true, false])
    await f.meta.batch([...first.flatMap((r) => r.ops), ...(await f.store.flush())], { sync: true })
    f.store.committed()
    const sizeBefore = await f.footprint()
    const again = await f.store.stageMany!([a, b])
    expect(again.map((r) => r.isNew)).toEqual([false, true])
    expect(again[0]!.ops).toEqual([])
    expect(await f.footprint()).toBe(sizeBefore + again[1]!.storedBytes)
  })
})
