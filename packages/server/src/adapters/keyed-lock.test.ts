import { describe, expect, it } from 'vitest'
import { createKeyedLock } from './keyed-lock'

const tick = () => new Promise((resolve) => setTimeout(resolve, 1))

describe('createKeyedLock', () => {
  it('runs work on one key one at a time, in call order, even after a failure', async () => {
    const lock = createKeyedLock()
    const log: string[] = []
    const step = (name: string, fail = false) =>
      lock.run('k', async () => {
        log.push(`${name} start`)
        await tick()
        log.push(`${name} end`)
        if (fail) throw new Error(name)
        return name
      })
    const results = await Promise.allSettled([step('a'), step('b', true), step('c')])
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end'])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
  })

  it('runs work on different keys concurrently', async () => {
    const lock = createKeyedLock()
    const log: string[] = []
    const step = (key: string) =>
      lock.run(key, async () => {
        log.push(`${key} start`)
        await tick()
        log.push(`${key} end`)
      })
    await Promise.all([step('x'), step('y')])
    expect(log.slice(0, 2)).toEqual(['x start', 'y start'])
  })
})
