import { describe, expect, it } from 'vitest'
import { RingBuffer } from './ring-buffer'

describe('RingBuffer', () => {
  it('keeps items oldest first while not full', () => {
    const ring = new RingBuffer<number>(3)
    ring.push(1)
    ring.push(2)
    expect(ring.toArray()).toEqual([1, 2])
    expect(ring.size).toBe(2)
  })

  it('drops the oldest once full', () => {
    const ring = new RingBuffer<number>(3)
    for (const n of [1, 2, 3, 4, 5]) ring.push(n)
    expect(ring.toArray()).toEqual([3, 4, 5])
    expect(ring.size).toBe(3)
  })

  it('wraps many times', () => {
    const ring = new RingBuffer<number>(2)
    for (let n = 0; n < 101; n++) ring.push(n)
    expect(ring.toArray()).toEqual([99, 100])
  })

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError)
    expect(() => new RingBuffer(1.5)).toThrow(RangeError)
  })
})
