import { describe, expect, it } from 'vitest'
import { EngineError } from '../errors'
import { insufficientStorage } from '../internal/no-space'
import { createLevelWriteQueue } from './level-write-queue'

const full = () => Object.assign(new Error('IO error: 000003.log: No space left on device'))

/** A queue over a recording writer whose next outcomes the test scripts. */
function scripted(outcomes: (Error | undefined)[], rotations: (Error | undefined)[] = []) {
  const log: string[] = []
  const queue = createLevelWriteQueue<string>({
    async write(groups) {
      log.push(`write ${groups.map((ops) => ops.join('+')).join(',')}`)
      const outcome = outcomes.shift()
      if (outcome !== undefined) throw outcome
    },
    wrap: (err) =>
      insufficientStorage('metadata write', err) ?? new EngineError('IO_ERROR', 'failed'),
    async startNewLog() {
      log.push('new log')
      const outcome = rotations.shift()
      if (outcome !== undefined) throw outcome
    },
  })
  return { queue, log }
}

describe('createLevelWriteQueue', () => {
  it('groups batches that arrive while a write is in flight into one write', async () => {
    const { queue, log } = scripted([])
    await Promise.all([
      queue.write(['a'], true),
      queue.write(['b'], false),
      queue.write(['c'], true),
    ])
    expect(log).toEqual(['write a', 'write b,c'])
  })

  it('starts a new log before the next write once a write failed for lack of space', async () => {
    const { queue, log } = scripted([full()])
    await expect(queue.write(['a'], true)).rejects.toMatchObject({
      code: 'INSUFFICIENT_STORAGE',
    })
    await queue.write(['b'], true)
    await queue.write(['c'], true)
    expect(log).toEqual(['write a', 'new log', 'write b', 'write c'])
  })

  it('keeps refusing writes, without writing, until a new log could be started', async () => {
    const stillFull = Object.assign(new Error('no room'), { code: 'ENOSPC' })
    const { queue, log } = scripted([full()], [stillFull])
    await expect(queue.write(['a'], true)).rejects.toMatchObject({
      code: 'INSUFFICIENT_STORAGE',
    })
    await expect(queue.write(['b'], true)).rejects.toMatchObject({
      code: 'INSUFFICIENT_STORAGE',
    })
    await queue.write(['c'], true)
    expect(log).toEqual(['write a', 'new log', 'new log', 'write c'])
  })

  it('needs no new log after other failures', async () => {
    const { queue, log } = scripted([new Error('EIO')])
    await expect(queue.write(['a'], true)).rejects.toMatchObject({ code: 'IO_ERROR' })
    await queue.write(['b'], true)
    expect(log).toEqual(['write a', 'write b'])
  })
})

describe('createLevelWriteQueue with guards', () => {
  /** A queue whose `admit` refuses every batch guarded by 'no' and fails on 'throw'. */
  function guarded() {
    const log: string[] = []
    const queue = createLevelWriteQueue<string, string>({
      async write(groups) {
        log.push(`write ${groups.map((ops) => ops.join('+')).join(',')}`)
      },
      async admit(group) {
        log.push(`admit ${group.map((b) => b.guards?.join('&') ?? '-').join(',')}`)
        if (group.some((b) => b.guards?.includes('throw'))) throw new Error('read failed')
        return group.map((b) =>
          b.guards?.includes('no') ? new EngineError('CONFLICT', 'no') : undefined,
        )
      },
      wrap: (err) => new EngineError('IO_ERROR', 'failed', { cause: err }),
    })
    return { queue, log }
  }

  it('asks nothing of admit for a group without guards', async () => {
    const { queue, log } = guarded()
    await Promise.all([queue.write(['a'], true), queue.write(['b'], false)])
    expect(log).toEqual(['write a', 'write b'])
  })

  it('leaves out a refused batch and still writes the rest of its group', async () => {
    const { queue, log } = guarded()
    const results = await Promise.allSettled([
      queue.write(['a'], true),
      queue.write(['b'], false, ['ok']),
      queue.write(['c'], true, ['no']),
      queue.write(['d'], false),
    ])
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ])
    expect(results[2]).toMatchObject({ reason: { code: 'CONFLICT' } })
    expect(log).toEqual(['write a', 'admit ok,no,-', 'write b,d'])
  })

  it('writes nothing when every batch of the group is refused', async () => {
    const { queue, log } = guarded()
    await expect(queue.write(['a'], true, ['no'])).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(log).toEqual(['admit no'])
  })

  it('fails only the guarded batches when the guards cannot be read', async () => {
    const { queue, log } = guarded()
    const results = await Promise.allSettled([
      queue.write(['a'], true),
      queue.write(['b'], false, ['throw']),
      queue.write(['c'], true),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(results[1]).toMatchObject({ reason: { code: 'IO_ERROR' } })
    expect(log).toEqual(['write a', 'admit throw,-', 'write c'])
  })
})
