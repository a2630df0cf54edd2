import { describe, expect, it } from 'vitest'
import { createFakeClock } from './fake-clock'

describe('createFakeClock', () => {
  it('runs due timers in time order, at their due time', async () => {
    const clock = createFakeClock(1000)
    const runs: string[] = []
    clock.setTimer(() => runs.push(`b@${clock.now()}`), 30)
    clock.setTimer(() => runs.push(`a@${clock.now()}`), 10)
    clock.setTimer(() => runs.push(`c@${clock.now()}`), 30)
    clock.setTimer(() => runs.push('late'), 100)
    await clock.advance(50)
    expect(runs).toEqual(['a@1010', 'b@1030', 'c@1030'])
    expect(clock.now()).toBe(1050)
    expect(clock.pendingTimers).toBe(1)
  })

  it('runs timers scheduled by timers, and after their async work', async () => {
    const clock = createFakeClock()
    const ticks: number[] = []
    const tick = () => {
      ticks.push(clock.now())
      void Promise.resolve().then(() => clock.setTimer(tick, 10))
    }
    clock.setTimer(tick, 10)
    await clock.advance(35)
    expect(ticks).toEqual([10, 20, 30])
  })

  it('does not run cancelled timers', async () => {
    const clock = createFakeClock()
    let ran = false
    const cancel = clock.setTimer(() => (ran = true), 5)
    cancel()
    cancel()
    await clock.advance(10)
    expect(ran).toBe(false)
    expect(clock.pendingTimers).toBe(0)
    await expect(clock.advance(-1)).rejects.toThrow(RangeError)
  })
})
