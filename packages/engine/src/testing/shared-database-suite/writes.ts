import { describe, expect, it } from 'vitest'
import { COMMIT_TOKEN_KEY } from '../../meta/keys'
import { collect, outcome } from '../meta-store-conformance/async-results'
import { pseudoRandomBytes } from '../pseudo-random-bytes'
import { text } from './fixture'
import type { SharedDatabaseSuiteContext } from './fixture'

/** Writes from both nodes at once: all land, totals add up, GC is refused. */
export function writeTests(ctx: SharedDatabaseSuiteContext): void {
  describe('writes', () => {
    it('lands every concurrent write of distinct paths from both nodes, with exact totals', async () => {
      const { a, b } = await ctx.open()
      const sizes = new Map<string, number>()
      const writes: Promise<unknown>[] = []
      for (let i = 0; i < 40; i++) {
        for (const [node, db] of [
          ['a', a],
          ['b', b],
        ] as const) {
          const path = `/${node}/f${i}.txt`
          const data = `${node} wrote file ${i} ${'x'.repeat(i * 7)}`
          sizes.set(path, data.length)
          writes.push(db.writeFile(path, data))
        }
      }
      await Promise.all(writes)
      const total = [...sizes.values()].reduce((sum, n) => sum + n, 0)
      for (const db of [a, b]) {
        const listed = await collect(db.list('/', { depth: -1 }))
        expect(new Set(listed.map((e) => e.path))).toEqual(new Set(sizes.keys()))
        for (const entry of listed) expect(entry.size).toBe(sizes.get(entry.path))
        expect(await db.count('/a')).toBe(40)
        expect(await db.count('/b')).toBe(40)
        await db.refresh()
        const stats = db.stats()
        expect(stats.counts.files).toBe(80)
        expect(stats.counts.directories).toBe(2)
        expect(stats.sizes.logicalData).toBe(total)
      }
      // Stored counters are the sum of both nodes' tallies: every content is distinct, small.
      expect(a.stats().counts.chunks).toBe(80)
      expect(b.stats().counts.chunks).toBe(80)
      expect(a.head()).toBe(b.head())
    })

    it('reads on A, byte for byte, a large file B wrote while A wrote small ones', async () => {
      const { a, b } = await ctx.open()
      const big = pseudoRandomBytes(400_000, 20)
      let bytes = big.length
      const writes: Promise<unknown>[] = [b.writeFile('/b/big.bin', big)]
      for (let i = 0; i < 10; i++) {
        const data = `a wrote ${i} ${'y'.repeat(i * 11)}`
        bytes += data.length
        writes.push(a.writeFile(`/a/f${i}.txt`, data))
      }
      await Promise.all(writes)
      expect(Buffer.from(await a.readFile('/b/big.bin')).equals(Buffer.from(big))).toBe(true)
      for (const db of [a, b]) {
        await db.refresh()
        expect(db.stats().counts.files).toBe(11)
        expect(db.stats().sizes.logicalData).toBe(bytes)
      }
      expect(a.head()).toBe(b.head())
    })

    it('raises the commit token once per committed group', async () => {
      const { a, b, meta } = await ctx.open()
      const before = Number(text((await meta.get('meta', COMMIT_TOKEN_KEY)) as Uint8Array))
      const { version } = await b.writeFile('/t.txt', 't')
      const after = Number(text((await meta.get('meta', COMMIT_TOKEN_KEY)) as Uint8Array))
      expect(after).toBe(before + 1)
      await a.refresh()
      expect(a.head()).toBe(version)
    })

    it('refuses GC', async () => {
      const { a } = await ctx.open()
      expect(await outcome(a.gc())).toBe('CONFLICT')
      expect(await outcome(a.gc({ dryRun: true }))).toBe('CONFLICT')
    })
  })
}
