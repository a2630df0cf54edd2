import { describe, expect, it } from 'vitest'
import { GcFence } from '../commit/gc-fence'
import { UploadGrace } from './upload-grace'

const hash = (n: number) => new Uint8Array(32).fill(n)
const hex = (n: number) => Buffer.from(hash(n)).toString('hex')

describe('upload grace', () => {
  it('pins held chunks for the window, renews on use, and lets them go after', () => {
    const fence = new GcFence()
    const clock = { time: 0, now: () => clock.time }
    const grace = new UploadGrace(fence, clock, 1000, 10)
    expect(grace.hold(hash(1))).toBeUndefined()
    clock.time = 600
    grace.hold(hash(2))
    grace.hold(hash(1)) // renewed: now until 1600
    clock.time = 1200
    expect(grace.size).toBe(2)
    expect(fence.isPinned(hex(1))).toBe(true)
    clock.time = 1650
    expect(grace.size).toBe(0)
    expect(fence.isPinned(hex(1))).toBe(false)
    expect(fence.isPinned(hex(2))).toBe(false)
  })

  it('holds at most its bound, dropping the oldest, and never unpins an operation’s own lease', () => {
    const fence = new GcFence()
    const grace = new UploadGrace(fence, { now: () => 0 }, 1000, 2)
    const lease = fence.lease()
    lease.add(hash(1))
    grace.hold(hash(1))
    grace.hold(hash(2))
    grace.hold(hash(3))
    expect(grace.size).toBe(2)
    // The grace let hash 1 go; the lease still holds it.
    expect(fence.isPinned(hex(1))).toBe(true)
    lease.release()
    expect(fence.isPinned(hex(1))).toBe(false)
    expect(fence.pinnedKeys().sort()).toEqual([hex(2), hex(3)])
  })
})
