import { describe, expect, it } from 'vitest'
import { LiveSeries } from './live-series'

const metrics = (n: number) => ({
  throughput: {
    writes_per_sec: { '1m': n },
    reads_per_sec: { '1m': n + 1 },
    bytes_written_per_sec: { '1m': n * 100 },
    bytes_read_per_sec: { '1m': n * 200 },
  },
  sizes: { logical_data: n * 1000, chunk_data: n * 600, dedup_savings: n * 400 },
  health: { dedup_hit_rate: n / 10 },
})

describe('LiveSeries', () => {
  it('splits a metrics event into its charts, write before read, oldest first', () => {
    const live = new LiveSeries()
    live.addMetrics(1, metrics(2))
    live.addMetrics(2, metrics(4))
    live.addLatency(2, { write: { p95: 7 }, read: { p95: 8 } })
    expect(live.snapshot()).toEqual({
      operations: [
        { time: 1, values: [2, 3] },
        { time: 2, values: [4, 5] },
      ],
      bytes: [
        { time: 1, values: [200, 400] },
        { time: 2, values: [400, 800] },
      ],
      sizes: [
        { time: 1, values: [2000, 1200, 800] },
        { time: 2, values: [4000, 2400, 1600] },
      ],
      dedup: [
        { time: 1, values: [0.2] },
        { time: 2, values: [0.4] },
      ],
      latency: [{ time: 2, values: [7, 8] }],
    })
  })

  it('keeps only the newest samples of each chart', () => {
    const live = new LiveSeries(2)
    for (let t = 0; t < 5; t++) {
      live.addMetrics(t, metrics(t))
      live.addLatency(t, { write: { p95: t }, read: { p95: t } })
    }
    for (const samples of Object.values(live.snapshot())) {
      expect(samples.map((s) => s.time)).toEqual([3, 4])
    }
  })

  it('gives copies: later samples do not change an earlier snapshot', () => {
    const live = new LiveSeries()
    const before = live.snapshot()
    live.addMetrics(1, metrics(1))
    expect(before.sizes).toEqual([])
  })
})
