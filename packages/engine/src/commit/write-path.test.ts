import { describe, expect, it } from 'vitest'
import { EngineError } from '../errors'
import type { Committer } from './committer'
import type { Mutation } from './mutation'
import { WritePath } from './write-path'

/** A committer that answers each submit when the test says so; exclusive turns run at once. */
function fakeCommitter() {
  const answers: (() => void)[] = []
  const committer = {
    submit: <T>(_mutation: Mutation<T>) =>
      new Promise<T>((resolve) => answers.push(() => resolve(undefined as T))),
    exclusive: <T>(task: () => Promise<T>) => task(),
  }
  return { committer: committer as unknown as Committer, answers }
}

const noop: Mutation<undefined> = { apply: async () => ({ result: undefined }) }

describe('WritePath', () => {
  it('counts a mutation as pending until the committer answers it', async () => {
    const { committer, answers } = fakeCommitter()
    const writes = new WritePath({ committer, assertOpen: () => undefined })
    const done = writes.submit(noop)
    expect(writes.pending).toBe(1)
    answers[0]?.()
    await done
    expect(writes.pending).toBe(0)
  })

  it('refuses a mutation once the database is closed', async () => {
    const { committer, answers } = fakeCommitter()
    const closed = () => {
      throw new EngineError('CLOSED', 'the database is closed')
    }
    const writes = new WritePath({ committer, assertOpen: closed })
    await expect(writes.submit(noop)).rejects.toMatchObject({ code: 'CLOSED' })
    expect(answers).toHaveLength(0)
    expect(writes.pending).toBe(0)
  })

  it('runs a held task once running uploads exit, and holds new ones until it started', async () => {
    const { committer } = fakeCommitter()
    const writes = new WritePath({ committer, assertOpen: () => undefined })
    await writes.enter()
    const order: string[] = []
    const held = writes.hold(60_000, () => order.push('task'))
    const late = writes.enter().then(() => order.push('late upload'))
    await Promise.resolve()
    expect(order).toEqual([])
    writes.exit()
    expect(await held).toEqual({ value: 1 })
    await late
    expect(order).toEqual(['task', 'late upload'])
  })

  it('runs a held task at once when no upload is running', async () => {
    const { committer } = fakeCommitter()
    const writes = new WritePath({ committer, assertOpen: () => undefined })
    expect(await writes.hold(60_000, () => 'ran')).toEqual({ value: 'ran' })
  })
})
