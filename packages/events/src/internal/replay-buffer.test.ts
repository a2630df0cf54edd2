import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createReplayBuffer } from './replay-buffer'

describe('replay buffer', () => {
  it('keeps the last records in order and remembers what it evicted', () => {
    const buffer = createReplayBuffer<string>(3)
    for (let seq = 1; seq <= 5; seq++) buffer.push({ seq, item: `e${seq}` })
    expect(buffer.size).toBe(3)
    expect([0, 1, 2].map((i) => buffer.at(i)?.item)).toEqual(['e3', 'e4', 'e5'])
    expect(buffer.at(3)).toBeUndefined()
    expect(buffer.evictedThrough).toBe(2)
  })

  it('with capacity 0 keeps nothing and evicts everything', () => {
    const buffer = createReplayBuffer<string>(0)
    buffer.push({ seq: 7, item: 'x' })
    expect(buffer.size).toBe(0)
    expect(buffer.evictedThrough).toBe(7)
    expect(buffer.indexAfter(0)).toBe(0)
  })

  it('finds the first record after a sequence number, across gaps', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 300 }),
        (capacity, gaps, probe) => {
          const buffer = createReplayBuffer<number>(capacity)
          const all: number[] = []
          let seq = 0
          for (const gap of gaps) {
            seq += gap
            all.push(seq)
            buffer.push({ seq, item: seq })
          }
          const kept = all.slice(-capacity)
          const expected = kept.findIndex((s) => s > probe)
          expect(buffer.indexAfter(probe)).toBe(expected === -1 ? kept.length : expected)
          expect(buffer.evictedThrough).toBe(
            all.length > capacity ? all[all.length - capacity - 1] : 0,
          )
        },
      ),
    )
  })

  it('refuses a bad capacity', () => {
    expect(() => createReplayBuffer(-1)).toThrow(RangeError)
    expect(() => createReplayBuffer(Number.NaN)).toThrow(RangeError)
  })

  it('never holds more weight than its bound, evicting the oldest first', () => {
    const buffer = createReplayBuffer<number>(1000, 100)
    for (let seq = 1; seq <= 5000; seq++) {
      buffer.push({ seq, item: seq }, (seq * 7) % 40)
      expect(buffer.weight).toBeLessThanOrEqual(100)
    }
    const newest = buffer.at(buffer.size - 1)
    expect(newest?.seq).toBe(5000)
    expect(buffer.evictedThrough).toBe((buffer.at(0)?.seq ?? 0) - 1)
    // A record heavier than the whole bound is not kept, and counts as evicted.
    buffer.push({ seq: 5001, item: 5001 }, 500)
    expect(buffer.size).toBe(0)
    expect(buffer.evictedThrough).toBe(5001)
  })
})
