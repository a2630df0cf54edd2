import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { createEventBus } from './event-bus'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const heldBytes = () => {
  gc()
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

const MiB = 1024 * 1024
const EVENTS = 300
const ENTRIES = 1000
const prefix = `/${'deep/'.repeat(36)}`

describe('event bus memory', () => {
  it('keeps its replay buffer within its byte budget when events carry many paths', async () => {
    const bus = createEventBus({ bootId: 'boot' })
    const first = heldBytes()
    const ids: string[] = []
    for (let e = 0; e < EVENTS; e++) {
      const entries = Array.from({ length: ENTRIES }, (_, i) => ({ path: `${prefix}${e}-${i}` }))
      ids.push(bus.publish('entries_created', { entries }).event_id)
    }
    // 300,000 paths of about 200 characters: some 90 MiB if every event stayed buffered.
    expect(heldBytes() - first).toBeLessThan(24 * MiB)

    // Evicted events are reported lost; recent ones still replay.
    const old = bus.subscribe({ lastEventId: ids[0] })
    expect((await old.take())[0]).toMatchObject({
      event_type: 'events_lost',
      payload: { reason: 'expired' },
    })
    const recent = bus.subscribe({ lastEventId: ids[EVENTS - 2] })
    const [next] = await recent.take()
    expect(next?.event_id).toBe(ids[EVENTS - 1])
    bus.close()
  })

  it('refuses a negative byte budget', () => {
    expect(() => createEventBus({ replayBytes: -1 })).toThrow(RangeError)
  })
})
