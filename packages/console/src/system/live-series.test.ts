import { describe, expect, it } from 'vitest'
import { LiveSeries } from './live-series'

const rates = (writes: number, reads: number) => ({
  writes_per_sec: { '1m': writes },
  reads_per_sec: { '1m': reads },
})

describe('LiveSeries', () => {
  it('keeps throughput and latency samples apart, oldest first', () => {
    const live = new LiveSeries()
    live.addThroughput(1, rates(2, 3))
    live.addThroughput(2, rates(4, 5))
    live.addLatency(2, { write: { p95: 7 }, read: { p95: 8 } })
    expect(live.snapshot()).toEqual({
      writes: [
        { time: 1, value: 2 },
        { time: 2, value: 4 },
      ],
      reads: [
        { time: 1, value: 3 },
        { time: 2, value: 5 },
      ],
      writeLatency: [{ time: 2, value: 7 }],
      readLatency: [{ time: 2, value: 8 }],
    })
  })

  it('keeps only the newest samples', () => {
    const live = new LiveSeries(2)
    for (let t = 0; t < 5; t++) live.addThroughput(t, rates(t, t))
    expect(live.snapshot().writes.map((s) => s.time)).toEqual([3, 4])
  })
})
