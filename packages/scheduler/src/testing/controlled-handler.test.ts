import { describe, expect, it } from 'vitest'
import type { TaskContext } from '../task-handler'
import { createControlledHandler } from './controlled-handler'

function context(id: string, controller = new AbortController()): TaskContext {
  return { id, taskType: 'work', args: {}, signal: controller.signal, reportProgress: () => {} }
}

describe('createControlledHandler', () => {
  it('keeps each run going until the test ends it, counting overlaps', async () => {
    const work = createControlledHandler()
    const a = work.handler(context('a')) as Promise<unknown>
    const b = work.handler(context('b')) as Promise<unknown>
    expect(work.order).toEqual(['a', 'b'])
    expect(work.peak).toBe(2)
    work.run('a').resolve('done')
    work.run('b').reject(new Error('boom'))
    await expect(a).resolves.toBe('done')
    await expect(b).rejects.toThrow('boom')
    void work.handler(context('c'))
    expect(work.peak).toBe(2)
    expect(() => work.run('nope')).toThrow(/has not started/)
  })

  it('ends a run with its signal reason on abort when asked to', async () => {
    const work = createControlledHandler({ endOnAbort: true })
    const controller = new AbortController()
    const run = work.handler(context('a', controller)) as Promise<unknown>
    controller.abort(new Error('cancelled'))
    await expect(run).rejects.toThrow('cancelled')
    work.run('a').resolve('too late')
    await expect(run).rejects.toThrow('cancelled')
  })
})
