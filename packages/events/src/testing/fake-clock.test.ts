import { describe, expect, it } from 'vitest'
import { createFakeClock } from './fake-clock'

describe('createFakeClock', () => {
  it('runs due timers in time order, at their due time', async () => {
    const clock = createFakeClock(1000)
    const runs: string[] = []
    clock.setTimer(30, () => runs.push(`b@${clock.now()}`))
    clock.setTimer(10, () => runs.push(`a@${clock.now()}`))
    clock.setTimer(30, () => runs.push(`c@${clock.now()}`))
    clock.setTimer(100, () => runs.push('late'))
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
      void Promise.resolve().then(() => clock.setTimer(10, tick))
    }
    clock.setTimer(10, tick)
    await clock.advance(35)
    expect(ticks).toEqual([10, 20, 30])
  })

  it('does not run cancelled timers', async () => {
    const clock = createFakeClock()
    let ran = false
    clock.setTimer(5, () => (ran = true)).cancel()
    await clock.advance(10)
    expect(ran).toBe(false)
    await expect(clock.advance(-1)).rejects.toThrow(RangeError)
  })
})
