import { describe, expect, it, vi } from 'vitest'
import { createFreshRuns } from './fresh-runs'

describe('createFreshRuns', () => {
  it('answers each caller with a run started after it called, sharing runs in bursts', async () => {
    let value = 0
    const starts: number[] = []
    const releases: (() => void)[] = []
    const run = createFreshRuns(() => {
      starts.push(value)
      const seen = value
      return new Promise<number>((resolve) => releases.push(() => resolve(seen)))
    })
    const first = run()
    expect(starts).toEqual([0])
    // Arriving while the first run reads: they must not get its (possibly older) answer.
    value = 1
    const second = run()
    const third = run()
    expect(starts).toEqual([0])
    releases[0]?.()
    expect(await first).toBe(0)
    await vi.waitFor(() => expect(starts).toEqual([0, 1]))
    releases[1]?.()
    expect(await second).toBe(1)
    expect(await third).toBe(1)
    expect(starts).toHaveLength(2)
  })

  it('lets a failed run fail its callers only, and starts afresh after it', async () => {
    let calls = 0
    const run = createFreshRuns(async () => {
      calls++
      if (calls === 1) throw new Error('store down')
      return calls
    })
    await expect(run()).rejects.toThrow('store down')
    expect(await run()).toBe(2)
  })
})
