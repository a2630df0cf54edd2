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
    // The peer is 200 ms ahead: built at its 1200, received here at 1005 after ~5 ms.
    clock.heartbeat(1200, 1005)
    expect(clock.reading()).toEqual({ offsetMs: 200, roundTripMs: 10 })
  })

  it('keeps the median of the recent offsets, so one slow delivery does not swing it', () => {
    const clock = createPeerClock()
    clock.roundTrip(0)
    for (const late of [0, 1, 400, 2, 1]) clock.heartbeat(1000, 1000 + late)
    expect(clock.reading().offsetMs).toBe(-1)
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
