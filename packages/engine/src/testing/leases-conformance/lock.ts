import { describe, expect, it } from 'vitest'
import { outcome } from '../meta-store-conformance/async-results'
import type { LeasesSuiteContext } from './fixture'
import { gate, holdLock } from './fixture'

/** Waits until `signal` aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}

/** withLock: exclusion across nodes, release when the job settles, loss with the holder. */
export function lockTests(ctx: LeasesSuiteContext): void {
  describe('withLock', () => {
    it('runs the job and hands back its value', async () => {
      const { a } = await ctx.open()
      expect(await a.withLock('gc', async () => 42)).toEqual({ ran: true, value: 42 })
    })

    it('runs nothing while another holder, on either node, has the lock', async () => {
      const { a, b } = await ctx.open()
      const held = await holdLock(a, 'gc', 'done')
      let ranAgain = false
      const mark = async () => {
        ranAgain = true
      }
      expect(await b.withLock('gc', mark)).toEqual({ ran: false })
      expect(await a.withLock('gc', mark)).toEqual({ ran: false })
      expect(ranAgain).toBe(false)
      // Other names are other locks.
      expect(await b.withLock('sync:peer-1', async () => 'other')).toEqual({
        ran: true,
        value: 'other',
      })
      held.finish()
      expect(await held.result).toEqual({ ran: true, value: 'done' })
      expect(await b.withLock('gc', async () => 'next')).toEqual({ ran: true, value: 'next' })
    })

    it('lets exactly one of 10 concurrent callers on two nodes run', async () => {
      const { a, b } = await ctx.open()
      const job = gate()
      let runs = 0
      let answered = 0
      // The holder's job ends once the 9 others have answered, so none of them waited for it
      // (two holders at once would both wait forever: the test then times out).
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const result = await (i % 2 === 0 ? a : b).withLock('gc', async () => {
            runs += 1
            await job.promise
          })
          answered += 1
          if (answered === 9) job.open()
          return result
        }),
      )
      expect(outcomes.filter((result) => result.ran)).toHaveLength(1)
      expect(runs).toBe(1)
    })

    it('releases the lock when the job throws, and rethrows its error', async () => {
      const { a, b } = await ctx.open()
      const failure = new Error('job failed')
      await expect(
        a.withLock('gc', async () => {
          throw failure
        }),
      ).rejects.toBe(failure)
      expect(await b.withLock('gc', async () => 'after')).toEqual({ ran: true, value: 'after' })
    })

    it('frees the lock when its holder’s process or connection goes, and tells the job', async () => {
      const fixture = await ctx.open()
      const { a, b } = fixture
      const held = await holdLock(a, 'gc', 'finished late')
      expect(held.signal.aborted).toBe(false)
      await fixture.loseLocks(a)
      await aborted(held.signal)
      expect(await b.withLock('gc', async () => 'taken')).toEqual({ ran: true, value: 'taken' })
      held.finish()
      expect(await held.result).toEqual({ ran: true, value: 'finished late' })
    })

    it('refuses a malformed name with INVALID_INPUT, running nothing', async () => {
      const { a } = await ctx.open()
      let ran = false
      const mark = async () => {
        ran = true
      }
      expect(await outcome(a.withLock('', mark))).toBe('INVALID_INPUT')
      expect(await outcome(a.withLock('x'.repeat(201), mark))).toBe('INVALID_INPUT')
      expect(ran).toBe(false)
    })
  })
}
