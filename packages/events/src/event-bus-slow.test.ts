import { describe, expect, it } from 'vitest'
import { createEventBus } from './event-bus'
import type { Subscription } from './subscription'

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0))
const seqOf = (id: string) => Number(id.slice(id.lastIndexOf('-') + 1))

describe('event bus with slow consumers', () => {
  it('lets a stalled subscriber lose events without holding back 999 others', async () => {
    const queueSize = 100
    const bursts = 40
    const perBurst = 250
    const total = bursts * perBurst
    const bus = createEventBus({ queueSize: 1000, replaySize: 1000 })
    const stalled = bus.subscribe({ queueSize })
    const received = new Array<number>(999).fill(0)
    const lastSeq = new Array<number>(999).fill(0)
    let outOfOrder = 0
    const consume = async (sub: Subscription, index: number) => {
      for (;;) {
        const batch = await sub.take()
        if (batch.length === 0) return
        for (const event of batch) {
          const seq = seqOf(event.event_id)
          if (seq <= (lastSeq[index] as number)) outOfOrder++
          lastSeq[index] = seq
        }
        received[index] = (received[index] as number) + batch.length
      }
    }
    const consumers = received.map((_, i) => consume(bus.subscribe(), i))
    expect(bus.subscriberCount).toBe(1000)

    for (let burst = 1; burst <= bursts; burst++) {
      for (let i = 0; i < perBurst; i++)
        bus.publish('entries_created', { entries: [{ path: `/b${burst}/f${i}` }] })
      await settle()
      // Every live consumer has everything so far: none waits behind the stalled one.
      expect(Math.min(...received)).toBe(burst * perBurst)
      // The stalled one never holds more than its bound.
      expect(stalled.pending).toBe(queueSize)
    }

    expect(outOfOrder).toBe(0)
    expect(stalled.dropped).toBe(total - queueSize)
    // What it kept are the newest events.
    const kept = await stalled.take()
    expect(kept).toHaveLength(queueSize)
    expect(kept.map((e) => seqOf(e.event_id))).toEqual(
      Array.from({ length: queueSize }, (_, i) => total - queueSize + 1 + i),
    )
    bus.close()
    await Promise.all(consumers)
  })
})
