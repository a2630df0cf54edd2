import { describe, expect, it } from 'vitest'
import type { EventsError } from './errors'
import { createEventBus } from './event-bus'
import type { EventEnvelope } from './event-types'
import { startHeartbeat } from './heartbeat'
import type { MetricsPayload } from './metrics-payload'
import { startMetricsPulse } from './metrics-pulse'
import { createFakeClock } from './testing/fake-clock'

/** A whole stats snapshot as the server's stats endpoint returns it. */
const snapshot = (files: number) => ({
  identity: {
    version: '0.1.0',
    database_path: '/data',
    hash_algorithm: 'sha256',
    chunk_size: 65536,
    node_id: 0,
    uptime_seconds: 9,
  },
  counts: { files, directories: 2, symlinks: 0, chunks: 7, snapshots: 1, forks: 0 },
  sizes: {
    disk_total: 1e9,
    kv_file: 4096,
    logical_data: 100,
    chunk_data: 90,
    void_space: 0,
    dedup_savings: 10,
  },
  throughput: {
    writes_per_sec: { '1m': 1, '5m': 0.5, '15m': 0.2, peak_1m: 3 },
    reads_per_sec: { '1m': 2, '5m': 1, '15m': 0.4, peak_1m: 5 },
    bytes_written_per_sec: { '1m': 10, '5m': 5, '15m': 2 },
    bytes_read_per_sec: { '1m': 20, '5m': 10, '15m': 4 },
  },
  latency: {
    write: { p50: 1, p95: 2, p99: 3 },
    read: { p50: 1, p95: 2, p99: 3 },
    query: { p50: 1, p95: 2, p99: 3 },
    flush: { p50: 1, p95: 2, p99: 3 },
  },
  health: {
    disk_usage_percent: 12.5,
    kv_fill_ratio: 0.3,
    dedup_hit_rate: 0.1,
    gc_last_reclaimed_bytes: 512,
    write_buffer_depth: 0,
  },
})

describe('startMetricsPulse', () => {
  it('publishes counts, sizes, throughput and reduced health every 15 s by default', async () => {
    const clock = createFakeClock(0)
    const bus = createEventBus({ clock })
    const sub = bus.subscribe()
    let files = 0
    startMetricsPulse({ bus, stats: () => snapshot(++files) })
    await clock.advance(45_000)
    const events = (await sub.take()) as EventEnvelope<'metrics'>[]
    expect(events.map((e) => [e.event_type, e.timestamp, e.payload.counts.files])).toEqual([
      ['metrics', 15_000, 1],
      ['metrics', 30_000, 2],
      ['metrics', 45_000, 3],
    ])
    const payload = events[0]?.payload as MetricsPayload
    expect(Object.keys(payload).sort()).toEqual(['counts', 'health', 'sizes', 'throughput'])
    expect(payload.health).toEqual({
      disk_usage_percent: 12.5,
      kv_fill_ratio: 0.3,
      dedup_hit_rate: 0.1,
      write_buffer_depth: 0,
    })
    const { identity: _identity, latency: _latency, health: _health, ...sections } = snapshot(1)
    expect(payload).toMatchObject(sections)
  })

  it('runs on its own interval, independent of the heartbeat', async () => {
    const clock = createFakeClock(0)
    const bus = createEventBus({ clock })
    const sub = bus.subscribe()
    startHeartbeat({ bus, intervalMs: 15_000 })
    startMetricsPulse({ bus, stats: async () => snapshot(1), intervalMs: 10_000 })
    await clock.advance(30_000)
    const events = await sub.take()
    expect(events.map((e) => `${e.event_type}@${e.timestamp}`)).toEqual([
      'metrics@10000',
      'heartbeat@15000',
      'metrics@20000',
      'heartbeat@30000',
      'metrics@30000',
    ])
  })

  it('reports a failing provider and keeps going', async () => {
    const clock = createFakeClock(0)
    const bus = createEventBus({ clock })
    const sub = bus.subscribe()
    const errors: EventsError[] = []
    let calls = 0
    startMetricsPulse({
      bus,
      intervalMs: 1_000,
      stats: () => {
        if (++calls === 1) throw new Error('disk unreadable')
        return snapshot(calls)
      },
      onError: (err) => errors.push(err),
    })
    await clock.advance(2_000)
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      ['METRICS_UNAVAILABLE', 'stats for the metrics event failed: disk unreadable'],
    ])
    expect((errors[0]?.cause as Error).message).toBe('disk unreadable')
    expect((await sub.take()).map((e) => e.event_type)).toEqual(['metrics'])
  })

  it('skips a tick while the provider is still busy', async () => {
    const clock = createFakeClock(0)
    const bus = createEventBus({ clock })
    const sub = bus.subscribe()
    let release: (() => void) | undefined
    let calls = 0
    startMetricsPulse({
      bus,
      intervalMs: 1_000,
      stats: () => {
        calls++
        return new Promise<MetricsPayload>((resolve) => (release = () => resolve(snapshot(calls))))
      },
    })
    await clock.advance(3_000)
    expect(calls).toBe(1)
    release?.()
    await clock.advance(1_000)
    expect(calls).toBe(2)
    expect((await sub.take()).map((e) => e.event_type)).toEqual(['metrics'])
  })

  it('publishes nothing after stop, even from a provider call in flight', async () => {
    const clock = createFakeClock(0)
    const bus = createEventBus({ clock })
    const sub = bus.subscribe()
    let release: (() => void) | undefined
    const pulse = startMetricsPulse({
      bus,
      intervalMs: 1_000,
      stats: () => new Promise<MetricsPayload>((resolve) => (release = () => resolve(snapshot(1)))),
    })
    await clock.advance(1_000)
    pulse.stop()
    release?.()
    await clock.advance(5_000)
    expect(sub.pending).toBe(0)
  })
})
