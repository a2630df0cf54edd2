import { describe, expect, it } from 'vitest'
import { createSerialQueue } from './serial-queue'

describe('createSerialQueue', () => {
  it('runs jobs one at a time in order, whatever each one does', async () => {
    const queue = createSerialQueue()
    const log: string[] = []
    let running = 0
    const job =
      (name: string, fail = false) =>
      async () => {
        running += 1
        expect(running).toBe(1)
        log.push(`start ${name}`)
        await new Promise((resolve) => setImmediate(resolve))
        log.push(`end ${name}`)
        running -= 1
        if (fail) throw new Error(name)
        return name
      }
    const results = await Promise.allSettled([
      queue.run(job('a')),
      queue.run(job('b', true)),
      queue.run(job('c')),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
  })

  it('is idle once every job given so far has settled', async () => {
    const queue = createSerialQueue()
    let done = false
    void queue.run(async () => {
      await new Promise((resolve) => setImmediate(resolve))
      done = true
    })
    await queue.idle()
    expect(done).toBe(true)
  })
})
