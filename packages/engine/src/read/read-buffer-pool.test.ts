import { describe, expect, it } from 'vitest'
import {
  POOLED_BUFFER_BYTES,
  POOLED_BUFFERS,
  ReadBufferPool,
  WindowBuffers,
} from './read-buffer-pool'

describe('WindowBuffers', () => {
  it("cuts a window's spans from one pooled buffer while they fit, side by side", () => {
    const pool = new ReadBufferPool()
    const window = new WindowBuffers(pool)
    const a = window.take(300_000)
    const b = window.take(500_000)
    expect(a.length).toBe(300_000)
    expect(b.length).toBe(500_000)
    expect(b.buffer).toBe(a.buffer)
    expect(b.byteOffset).toBe(a.byteOffset + a.length)
    // The next span does not fit in what is left: a second pooled buffer.
    const c = window.take(POOLED_BUFFER_BYTES - 700_000)
    expect(c.buffer).not.toBe(a.buffer)
    expect(c.byteOffset).toBe(0)
    window.release()
    expect(pool.free).toBe(2)
  })

  it('gives a span larger than a pooled buffer memory of its own, kept out of the pool', () => {
    const pool = new ReadBufferPool()
    const window = new WindowBuffers(pool)
    const large = window.take(POOLED_BUFFER_BYTES + 1)
    expect(large.length).toBe(POOLED_BUFFER_BYTES + 1)
    // Nothing is cut from it: the next span takes a pooled buffer.
    const small = window.take(10)
    expect(small.buffer).not.toBe(large.buffer)
    window.release()
    expect(pool.free).toBe(1)
  })

  it('hands the next window the memory the last one gave back', () => {
    const pool = new ReadBufferPool()
    const first = new WindowBuffers(pool)
    const part = first.take(1000)
    first.release()
    const second = new WindowBuffers(pool)
    expect(second.take(2000).buffer).toBe(part.buffer)
  })
})

describe('ReadBufferPool', () => {
  it(`keeps at most ${POOLED_BUFFERS} buffers, so its memory stays bounded`, () => {
    const pool = new ReadBufferPool()
    const taken = Array.from({ length: POOLED_BUFFERS + 4 }, () => pool.take(1))
    for (const buffer of taken) pool.give(buffer)
    expect(pool.free).toBe(POOLED_BUFFERS)
  })
})
