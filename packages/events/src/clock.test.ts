import { describe, expect, it } from 'vitest'
import { systemClock } from './clock'

describe('systemClock', () => {
  it('reads the wall clock', () => {
    const before = Date.now()
    const now = systemClock.now()
    expect(now).toBeGreaterThanOrEqual(before)
    expect(now).toBeLessThanOrEqual(Date.now())
  })

  it('runs a timer once and cancels another', async () => {
    const runs: string[] = []
    systemClock.setTimer(() => runs.push('ran'), 5)
    const cancel = systemClock.setTimer(() => runs.push('cancelled'), 5)
    cancel()
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(runs).toEqual(['ran'])
  })

  it('accepts delays beyond what setTimeout honours without firing early', async () => {
    let ran = false
    const cancel = systemClock.setTimer(() => (ran = true), 30 * 24 * 3_600_000)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(ran).toBe(false)
    cancel()
  })
})
