import { describe, expect, it } from 'vitest'
import { GcWatch } from './gc-watch'

const root = (n: number) => new Uint8Array(32).fill(n)

describe('GcWatch', () => {
  it('ignores roots while no collection runs', () => {
    const watch = new GcWatch()
    watch.add(root(1))
    expect(watch.running).toBe(false)
    expect(watch.take()).toEqual([])
  })

  it('hands a running collection each new root once', () => {
    const watch = new GcWatch()
    watch.start()
    watch.add(root(1), root(2))
    expect(watch.take()).toEqual([root(1), root(2)])
    watch.add(root(3))
    expect(watch.take()).toEqual([root(3)])
    expect(watch.take()).toEqual([])
    watch.stop()
    expect(watch.running).toBe(false)
  })

  it('keeps what the latest collection reclaimed', () => {
    const watch = new GcWatch()
    expect(watch.lastReclaimedBytes).toBe(0)
    watch.reclaimed(4096)
    expect(watch.lastReclaimedBytes).toBe(4096)
  })
})
