import { describe, expect, it } from 'vitest'
import { createFakeClock } from './fake-clock'

describe('createFakeClock', () => {
  it('reads its start time and moves only when advanced', async () => {
    const clock = createFakeClock(1000)
    expect(clock.now()).toBe(1000)
    await clock.advance(500)
    expect(clock.now()).toBe(1500)
    expect(createFakeClock().now()).toBe(Date.UTC(2026, 0, 1))
  })

  it('fires due timers in order, each at its own time', async () => {
    const clock = createFakeClock(0)
    const fired: Array<[string, number]> = []
    clock.setTimer(() => fired.push(['b', clock.now()]), 200)
    clock.setTimer(() => fired.push(['a', clock.now()]), 100)
    clock.setTimer(() => fired.push(['c', clock.now()]), 200)
    clock.setTimer(() => fired.push(['late', clock.now()]), 1000)
    await clock.advance(300)
    expect(fired).toEqual([
      ['a', 100],
      ['b', 200],
      ['c', 200],
    ])
    expect(clock.pendingTimers).toBe(1)
  })

  it('fires timers set by timers within the same advance', async () => {
    const clock = createFakeClock(0)
    const fired: number[] = []
    const tick = () => {
      fired.push(clock.now())
      clock.setTimer(tick, 100)
    }
    clock.setTimer(tick, 100)
    await clock.advance(350)
    expect(fired).toEqual([100, 200, 300])
  })

  it('lets promise chains started by a timer settle before the next one', async () => {
    const clock = createFakeClock(0)
    const log: string[] = []
    clock.setTimer(() => {
      void Promise.resolve()
        .then(() => undefined)
        .then(() => log.push('chain done'))
    }, 10)
    clock.setTimer(() => log.push('second timer'), 20)
    await clock.advance(20)
    expect(log).toEqual(['chain done', 'second timer'])
  })

  it('does not fire cancelled timers', async () => {
    const clock = createFakeClock(0)
    let fired = false
    const cancel = clock.setTimer(() => (fired = true), 10)
    cancel()
    await clock.advance(100)
    expect(fired).toBe(false)
    expect(clock.pendingTimers).toBe(0)
    await expect(clock.advance(-1)).rejects.toThrow(RangeError)
  })
})
