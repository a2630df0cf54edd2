import { describe, expect, it } from 'vitest'
import { LiveSeries } from './live-series'

const rates = (writes: number, reads: number) => ({
  writes_per_sec: { '1m': writes },
  reads_per_sec: { '1m': reads },
})

describe('LiveSeries', () => {
  it('keeps throughput and latency samples apart, write before read, oldest first', () => {
    const live = new LiveSeries()
    live.addThroughput(1, rates(2, 3))
    live.addThroughput(2, rates(4, 5))
    live.addLatency(2, { write: { p95: 7 }, read: { p95: 8 } })
    expect(live.snapshot()).toEqual({
      throughput: [
        { time: 1, values: [2, 3] },
        { time: 2, values: [4, 5] },
      ],
      latency: [{ time: 2, values: [7, 8] }],
    })
  })

  it('keeps only the newest samples', () => {
    const live = new LiveSeries(2)
    for (let t = 0; t < 5; t++) live.addThroughput(t, rates(t, t))
    expect(live.snapshot().throughput.map((s) => s.time)).toEqual([3, 4])
  })
})
