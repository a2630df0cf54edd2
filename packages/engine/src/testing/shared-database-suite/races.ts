import { describe, expect, it } from 'vitest'
import type { Database } from '../../database'
import { isEngineError } from '../../errors'
import { outcome } from '../meta-store-conformance/async-results'
import { text } from './fixture'
import type { SharedDatabaseSuiteContext } from './fixture'

/** Conditional writes, snapshot names and HEAD moves raced from both nodes: one wins. */
export function raceTests(ctx: SharedDatabaseSuiteContext): void {
  describe('races', () => {
    it('lets exactly one of 20 concurrent If-Match writes split over both nodes win, each round', async () => {
      const { a, b } = await ctx.open()
      let current = (await a.writeFile('/race.txt', 'round 0')).hash
      for (let round = 1; round <= 5; round++) {
        const attempts = Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a : b).writeFile('/race.txt', `round ${round} by writer ${i}`, {
            ifMatch: current,
          }),
        )
        const settled = await Promise.allSettled(attempts)
        const winners = settled.flatMap((s, i) =>
          s.status === 'fulfilled' ? [{ i, ...s.value }] : [],
        )
        expect(winners).toHaveLength(1)
        for (const s of settled)
          if (s.status === 'rejected')
            expect(isEngineError(s.reason, 'PRECONDITION_FAILED')).toBe(true)
        const winner = winners[0] as (typeof winners)[number]
        expect(text(await a.readFile('/race.txt'))).toBe(`round ${round} by writer ${winner.i}`)
        expect(text(await b.readFile('/race.txt'))).toBe(`round ${round} by writer ${winner.i}`)
        current = winner.hash
      }
    })

    it('loses no increment of a counter both nodes update with If-Match retries', async () => {
      const { a, b } = await ctx.open()
      await a.writeFile('/counter', '0')
      const increment = async (db: Database): Promise<void> => {
        for (;;) {
          const entry = await db.stat('/counter')
          const value = Number(text(await db.readFile('/counter')))
          const code = await outcome(
            db.writeFile('/counter', String(value + 1), { ifMatch: entry.hash }),
          )
          if (code === 'resolved') return
          expect(code).toBe('PRECONDITION_FAILED')
        }
      }
      await Promise.all(Array.from({ length: 40 }, (_, i) => increment(i % 2 === 0 ? a : b)))
      expect(text(await b.readFile('/counter'))).toBe('40')
      expect(text(await a.readFile('/counter'))).toBe('40')
    })

    it('lets exactly one node create a file with If-None-Match', async () => {
      const { a, b } = await ctx.open()
      for (let round = 0; round < 5; round++) {
        const settled = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? a : b).writeFile(`/once-${round}`, `writer ${i}`, {
              ifNoneMatch: '*',
            }),
          ),
        )
        expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1)
      }
    })

    it('shows a snapshot created on A to B, and refuses the same name from both but once', async () => {
      const { a, b } = await ctx.open()
      await a.writeFile('/doc.txt', 'v1')
      const made = await a.snapshots.create('first', { metadata: { by: 'a' } })
      expect(await b.snapshots.get('first')).toEqual(made)
      expect((await b.snapshots.list()).map((s) => s.name)).toEqual(['first'])
      await b.refresh()
      expect(text(await b.at({ snapshot: 'first' }).readFile('/doc.txt'))).toBe('v1')
      const codes = await Promise.all([
        outcome(a.snapshots.create('second')),
        outcome(b.snapshots.create('second')),
      ])
      expect(codes.sort()).toEqual(['CONFLICT', 'resolved'])
      await a.refresh()
      expect(a.stats().counts.snapshots).toBe(2)
      expect(b.stats().counts.snapshots).toBe(2)
      await b.forks.create('work')
      expect((await a.forks.get('work')).base).toBe(made.version)
      await a.fork('work').writeFile('/doc.txt', 'on the fork')
      expect(text(await b.fork('work').readFile('/doc.txt'))).toBe('on the fork')
    })

    it('races HEAD moves with expectHead: one wins, and the HEAD log keeps both nodes apart', async () => {
      const { a, b } = await ctx.open()
      const base = (await a.writeFile('/p.txt', 'base')).version
      const one = (await a.writeFile('/p.txt', 'one')).version
      const two = (await b.writeFile('/p.txt', 'two')).version
      const codes = await Promise.all([
        outcome(a.promote(one, { expectHead: two, by: 'a' })),
        outcome(b.promote(base, { expectHead: two, by: 'b' })),
      ])
      expect(codes.sort()).toEqual(['CONFLICT', 'resolved'])
      await a.promote(two, { by: 'a' })
      await b.promote(one, { by: 'b' })
      const { items } = await a.headLog()
      expect(items).toHaveLength(3)
      expect(items[0]?.head).toBe(one)
      expect(items[1]?.head).toBe(two)
      expect(items[0]?.by).toBe('b')
    })
  })
}
