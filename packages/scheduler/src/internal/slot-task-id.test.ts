import { describe, expect, it } from 'vitest'
import { slotTaskId } from './slot-task-id'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const T0 = Date.UTC(2026, 0, 1)

describe('slotTaskId', () => {
  it('is a UUIDv7 carrying the slot time, the same for the same schedule and slot', () => {
    const id = slotTaskId('nightly', T0)
    expect(id).toMatch(UUID_V7)
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(T0)
    expect(slotTaskId('nightly', T0)).toBe(id)
  })

  it('differs between schedules and between slots, and sorts by slot', () => {
    const ids = new Set([
      slotTaskId('nightly', T0),
      slotTaskId('nightly', T0 + 60_000),
      slotTaskId('hourly', T0),
      slotTaskId('nightl', T0),
    ])
    expect(ids.size).toBe(4)
    expect(slotTaskId('b', T0) < slotTaskId('a', T0 + 60_000)).toBe(true)
  })
})
