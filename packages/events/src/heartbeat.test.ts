import { describe, expect, it } from 'vitest'
import { createEventBus } from './event-bus'
import type { EventEnvelope } from './event-types'
import { startHeartbeat } from './heartbeat'
import { createFakeClock } from './testing/fake-clock'

const drain = async (sub: ReturnType<ReturnType<typeof createEventBus>['subscribe']>) =>
  sub.pending === 0 ? [] : ((await sub.take()) as EventEnvelope<'heartbeat'>[])

describe('startHeartbeat', () => {
  it('publishes {intent_time, construct_time, node_id} every 15 s by default', async () => {
    const clock = createFakeClock(1_000_000)
    const bus = createEventBus({ clock, nodeId: 3 })
    const sub = bus.subscribe()
    const heartbeat = startHeartbeat({ bus })
    await clock.advance(14_999)
    expect(sub.pending).toBe(0)
    await clock.advance(1)
    await clock.advance(30_000)
    const beats = await drain(sub)
    expect(beats.map((e) => e.event_type)).toEqual(['heartbeat', 'heartbeat', 'heartbeat'])
    expect(beats.map((e) => e.payload)).toEqual([
      { intent_time: 1_015_000, construct_time: 1_015_000, node_id: 3 },
      { intent_time: 1_030_000, construct_time: 1_030_000, node_id: 3 },
      { intent_time: 1_045_000, construct_time: 1_045_000, node_id: 3 },
    ])
    expect(Object.keys(beats[0]?.payload ?? {}).sort()).toEqual([
      'construct_time',
      'intent_time',
      'node_id',
    ])
    heartbeat.stop()
  })

  it('reports the delay between schedule and construction', async () => {
    // A clock whose timers fire late, as on a busy event loop.
    const clock = createFakeClock(0)
    const late = { ...clock, setTimer: (cb: () => void, ms: number) => clock.setTimer(cb, ms + 40) }
    const bus = createEventBus({ clock })
    const sub = bus.subscribe()
    startHeartbeat({ bus, clock: late, intervalMs: 1_000 })
    await clock.advance(3_100)
    const beats = await drain(sub)
    expect(beats.map((e) => e.payload.intent_time)).toEqual([1_000, 2_000, 3_000])
    expect(beats.map((e) => e.payload.construct_time - e.payload.intent_time)).toEqual([40, 40, 40])
  })

  it('skips beats missed while the process was stalled instead of bursting', async () => {
    const clock = createFakeClock(0)
    // Timers that fire 3.5 intervals late once, then on time.
    let first = true
    const stalled = {
      ...clock,
      setTimer: (cb: () => void, ms: number) => {
        const delay = first ? ms + 3_500 : ms
        first = false
        return clock.setTimer(cb, delay)
      },
    }
    const bus = createEventBus({ clock })
    const sub = bus.subscribe()
    startHeartbeat({ bus, clock: stalled, intervalMs: 1_000 })
    await clock.advance(6_000)
    const beats = await drain(sub)
    expect(beats.map((e) => [e.payload.intent_time, e.payload.construct_time])).toEqual([
      [1_000, 4_500],
      [5_000, 5_000],
      [6_000, 6_000],
    ])
  })

  it('stops on stop() and when the bus closes', async () => {
    const clock = createFakeClock(0)
    const bus = createEventBus({ clock })
    const sub = bus.subscribe()
    const heartbeat = startHeartbeat({ bus, intervalMs: 100 })
    await clock.advance(250)
    heartbeat.stop()
    expect(heartbeat.running).toBe(false)
    await clock.advance(1_000)
    expect(sub.pending).toBe(2)
    expect(clock.pendingTimers).toBe(0)

    const other = startHeartbeat({ bus, intervalMs: 100 })
    bus.close()
    await clock.advance(100)
    expect(other.running).toBe(false)
    expect(clock.pendingTimers).toBe(0)
  })

  it('refuses a non-positive interval', () => {
    const bus = createEventBus()
    expect(() => startHeartbeat({ bus, intervalMs: 0 })).toThrow(RangeError)
    expect(() => startHeartbeat({ bus, intervalMs: Number.NaN })).toThrow(RangeError)
  })
})
