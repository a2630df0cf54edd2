import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createMailbox } from './mailbox'

describe('mailbox', () => {
  it('hands over queued items in order, up to max', async () => {
    const box = createMailbox<number>(10)
    for (let i = 0; i < 5; i++) box.push(i)
    expect(await box.take(2)).toEqual([0, 1])
    expect(await box.take()).toEqual([2, 3, 4])
    expect(box.pending).toBe(0)
  })

  it('wakes a waiting consumer with everything pushed in the same tick', async () => {
    const box = createMailbox<string>(10)
    const taken = box.take()
    box.push('a')
    box.push('b')
    box.push('c')
    expect(await taken).toEqual(['a', 'b', 'c'])
  })

  it('drops the oldest items when full and counts them', async () => {
    const box = createMailbox<number>(3)
    for (let i = 0; i < 10; i++) box.push(i)
    expect(box.pending).toBe(3)
    expect(box.dropped).toBe(7)
    expect(await box.take()).toEqual([7, 8, 9])
  })

  it('keeps FIFO order with bounded size for any push/take interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 5 })), { maxLength: 200 }),
        async (capacity, ops) => {
          const box = createMailbox<number>(capacity)
          const model: number[] = []
          let next = 0
          let dropped = 0
          for (const op of ops) {
            if (op === -1) {
              box.push(next)
              model.push(next++)
              if (model.length > capacity) {
                model.shift()
                dropped++
              }
            } else if (model.length > 0) {
              expect(await box.take(op)).toEqual(model.splice(0, op))
            }
            expect(box.pending).toBe(model.length)
            expect(box.pending).toBeLessThanOrEqual(capacity)
          }
          expect(box.dropped).toBe(dropped)
        },
      ),
    )
  })

  it('resolves a waiting take with nothing when closed, and ignores later pushes', async () => {
    const box = createMailbox<number>(4)
    const taken = box.take()
    box.close()
    expect(await taken).toEqual([])
    box.push(1)
    expect(box.pending).toBe(0)
    expect(await box.take()).toEqual([])
    expect(box.closed).toBe(true)
  })

  it('refuses a second concurrent consumer and a bad capacity', async () => {
    const box = createMailbox<number>(4)
    void box.take()
    await expect(box.take()).rejects.toThrow(/one consumer/)
    expect(() => createMailbox(0)).toThrow(RangeError)
    expect(() => createMailbox(1.5)).toThrow(RangeError)
  })
})
