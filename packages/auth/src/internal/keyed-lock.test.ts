import { describe, expect, it } from 'vitest'
import { createKeyedLock } from './keyed-lock'

const tick = () => new Promise((resolve) => setTimeout(resolve, 1))

describe('keyed lock', () => {
  it('runs sections on one key one after the other', async () => {
    const lock = createKeyedLock()
    let inside = 0
    let maxInside = 0
    const order: number[] = []
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        lock.run('k', async () => {
          inside++
          maxInside = Math.max(maxInside, inside)
          await tick()
          order.push(i)
          inside--
        }),
      ),
    )
    expect(maxInside).toBe(1)
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('lets sections on different keys overlap', async () => {
    const lock = createKeyedLock()
    let inside = 0
    let maxInside = 0
    await Promise.all(
      ['a', 'b', 'c'].map((key) =>
        lock.run(key, async () => {
          inside++
          maxInside = Math.max(maxInside, inside)
          await tick()
          inside--
        }),
      ),
    )
    expect(maxInside).toBe(3)
  })

  it('keeps going after a section fails and passes its error on', async () => {
    const lock = createKeyedLock()
    const failed = lock.run('k', () => Promise.reject(new Error('boom')))
    const next = lock.run('k', () => Promise.resolve(7))
    await expect(failed).rejects.toThrow('boom')
    await expect(next).resolves.toBe(7)
  })
})
