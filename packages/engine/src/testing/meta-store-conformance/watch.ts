import { describe, expect, it, vi } from 'vitest'
import type { MetaStore } from '../../meta/meta-store'
import type { MetaSuiteContext } from './fixture'

const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value)

/** Counts the calls of a watch listener. */
function counter(store: MetaStore): { calls: () => number; stop: () => void } {
  let calls = 0
  const stop = (store.watch as (listener: () => void) => () => void)(() => calls++)
  return { calls: () => calls, stop }
}

const guardedPut = (store: MetaStore, key: string) =>
  store.batch([{ type: 'put', space: 'ref', key, value: utf8(key) }], {
    sync: true,
    guards: [{ space: 'ref', key, expect: null }],
  })

/** `watch`: the notification other nodes learn of commits by (declared by `supports.watch`). */
export function watchTests(ctx: MetaSuiteContext): void {
  if (ctx.supports.watch !== true) return
  describe('watch', () => {
    it("hears of another store's guarded batches and its own, and nothing once stopped", async () => {
      const fixture = await ctx.open()
      if (fixture.peer === undefined) throw new Error('a fixture with watch must offer peer()')
      const peer = await fixture.peer()
      const first = counter(fixture.store)
      await guardedPut(peer, 'from-peer')
      await vi.waitFor(() => expect(first.calls()).toBeGreaterThanOrEqual(1), { timeout: 5000 })
      const afterPeer = first.calls()
      await guardedPut(fixture.store, 'from-self')
      await vi.waitFor(() => expect(first.calls()).toBeGreaterThan(afterPeer), { timeout: 5000 })

      // Stopped: a later commit reaches a second listener, not the first.
      first.stop()
      const stopped = first.calls()
      const second = counter(fixture.store)
      await guardedPut(peer, 'after-stop')
      await vi.waitFor(() => expect(second.calls()).toBeGreaterThanOrEqual(1), { timeout: 5000 })
      expect(first.calls()).toBe(stopped)
      second.stop()
    })
  })
}
