import { describe, expect, it } from 'vitest'
import { createPeerClock } from './peer-clock'

describe('createPeerClock', () => {
  it('knows nothing before a round trip or a heartbeat', () => {
    expect(createPeerClock().reading()).toEqual({ offsetMs: null, roundTripMs: null })
  })

  it('takes half the smallest recent round trip as the heartbeat travel time', () => {
    const clock = createPeerClock()
    clock.roundTrip(30)
    clock.roundTrip(10)
    clock.roundTrip(50)
    clock.streamOpened(false)
    // The peer is 200 ms ahead: built at its 1200, received here at 1005 after ~5 ms.
    clock.heartbeat(1200, 1005)
    expect(clock.reading()).toEqual({ offsetMs: 200, roundTripMs: 10 })
  })

  it('keeps the median of the recent offsets, so one slow delivery does not swing it', () => {
    const clock = createPeerClock()
    clock.roundTrip(0)
    clock.streamOpened(false)
    const lates = [0, 1, 400, 2, 1]
    lates.forEach((late, i) => clock.heartbeat(15_000 * i, 15_000 * i + late))
    expect(clock.reading().offsetMs).toBe(-1)
  })

  it('does not sample heartbeats replayed in a burst after a resumed reconnect', () => {
    // Equal clocks, beats every 15 s. One arrives live, then the stream is down for 2 minutes
    // and the reconnect (Last-Event-ID) replays the 8 beats of the gap at once.
    const clock = createPeerClock()
    clock.roundTrip(2)
    clock.streamOpened(false)
    let t = 1_000_000
    expect(clock.heartbeat(t, t + 1)).toBe(true)
    const reconnectedAt = t + 120_000 + 50
    clock.streamOpened(true)
    for (let i = 1; i <= 8; i++)
      expect(clock.heartbeat(t + 15_000 * i, reconnectedAt + i)).toBe(false)
    expect(clock.reading().offsetMs).toBe(0)
    // The next beat comes live, 15 s after the last replayed one was built.
    t += 135_000
    expect(clock.heartbeat(t, t + 1)).toBe(true)
    expect(clock.reading().offsetMs).toBe(0)
  })

  it('takes the first beat of a clock that heard of no fresh stream only as a reference', () => {
    const clock = createPeerClock()
    clock.roundTrip(0)
    expect(clock.heartbeat(1_000, 61_000)).toBe(false)
    expect(clock.heartbeat(16_000, 61_001)).toBe(false)
    expect(clock.heartbeat(31_000, 76_001)).toBe(true)
    expect(clock.reading().offsetMs).toBe(-45_001)
  })

  it('does not sample a beat older than one already sampled, nor the first of a resumed stream alone', () => {
    const clock = createPeerClock()
    clock.roundTrip(0)
    clock.streamOpened(false)
    expect(clock.heartbeat(5_000, 5_000)).toBe(true)
    expect(clock.heartbeat(5_000, 20_000)).toBe(false)
    const resumed = createPeerClock()
    resumed.streamOpened(true)
    expect(resumed.heartbeat(1_000, 60_000)).toBe(false)
    expect(resumed.reading().offsetMs).toBeNull()
  })

  it('forgets samples older than the last eight, and ignores nonsense', () => {
    const clock = createPeerClock()
    clock.roundTrip(1)
    for (let i = 0; i < 8; i++) clock.roundTrip(100)
    clock.roundTrip(-5)
    clock.roundTrip(Number.NaN)
    clock.heartbeat(Number.NaN, 0)
    expect(clock.reading()).toEqual({ offsetMs: null, roundTripMs: 100 })
  })
})
