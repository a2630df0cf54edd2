import { afterEach, describe, expect, it, vi } from 'vitest'
import { systemClock } from './clock'

describe('systemClock', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('reads Date.now()', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) })
    expect(systemClock.now()).toBe(Date.UTC(2026, 0, 1))
  })

  it('fires a timer once after its delay, unless cancelled', () => {
    vi.useFakeTimers()
    const fired: string[] = []
    systemClock.setTimer(() => fired.push('kept'), 100)
    const cancel = systemClock.setTimer(() => fired.push('cancelled'), 100)
    cancel()
    vi.advanceTimersByTime(99)
    expect(fired).toEqual([])
    vi.advanceTimersByTime(1)
    expect(fired).toEqual(['kept'])
    vi.advanceTimersByTime(1000)
    expect(fired).toEqual(['kept'])
  })

  it('waits longer than setTimeout allows by chaining', () => {
    vi.useFakeTimers()
    let fired = false
    const thirtyDays = 30 * 24 * 60 * 60 * 1000
    systemClock.setTimer(() => (fired = true), thirtyDays)
    vi.advanceTimersByTime(thirtyDays - 1)
    expect(fired).toBe(false)
    vi.advanceTimersByTime(1)
    expect(fired).toBe(true)
  })

  it('cancels a chained long timer', () => {
    vi.useFakeTimers()
    let fired = false
    const cancel = systemClock.setTimer(() => (fired = true), 2 ** 32)
    vi.advanceTimersByTime(2 ** 31)
    cancel()
    vi.advanceTimersByTime(2 ** 32)
    expect(fired).toBe(false)
  })
})
