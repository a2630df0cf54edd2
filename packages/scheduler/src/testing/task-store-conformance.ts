import { afterEach, describe, expect, it } from 'vitest'
import { TASK_STATUSES, type Task } from '../task'
import { matchesTaskFilter, type TaskFilter, type TaskStore } from '../task-store'
import { createSeededRandom } from './seeded-random'

/** Options of the store conformance suites. */
export interface StoreConformanceOptions<S> {
  /** Called after each test with every store it opened (close a database, remove a temp dir). */
  close?: (store: S) => void | Promise<void>
  /** Length of the random operation sequences checked against a model (default 200). */
  randomSteps?: number
}

const T0 = Date.UTC(2026, 0, 1)

function minimalTask(id: string, overrides: Partial<Task> = {}): Task {
  return {
    id,
    taskType: 'gc',
    status: 'pending',
    args: { dry_run: false },
    progress: 0,
    createdAt: T0,
    ...overrides,
  }
}

function fullTask(id: string): Task {
  return {
    id,
    taskType: 'backup',
    status: 'failed',
    args: { snapshot: 'nightly', dir: '/var/backups', keep: 3, nested: { list: [1, 'two', null] } },
    progress: 0.25,
    etaMs: T0 + 90_000,
    createdAt: T0,
    startedAt: T0 + 1000,
    finishedAt: T0 + 2000,
    error: 'disk full',
    result: { files: ['a.svcdb'], bytes: 12 },
    scheduleId: 'nightly-backup',
  }
}

/**
 * Registers a vitest suite that checks a {@link TaskStore} implementation against the port's
 * contract. Every implementation runs it in one line.
 *
 * @example
 * runTaskStoreConformance('memory', () => createMemoryTaskStore())
 * runTaskStoreConformance('level', async () => createLevelTaskStore(await openTempDb()), {
 *   close: (store) => store.close(),
 * })
 */
export function runTaskStoreConformance<S extends TaskStore>(
  name: string,
  makeStore: () => S | Promise<S>,
  options: StoreConformanceOptions<S> = {},
): void {
  describe(`TaskStore conformance: ${name}`, () => {
    const opened: S[] = []
    const open = async (): Promise<S> => {
      const store = await makeStore()
      opened.push(store)
      return store
    }
    afterEach(async () => {
      for (const store of opened.splice(0)) await options.close?.(store)
    })

    it('returns undefined for an unknown id', async () => {
      const store = await open()
      expect(await store.get('missing')).toBeUndefined()
      expect(await store.list()).toEqual([])
    })

    it('round-trips a task with only the required fields, adding no keys', async () => {
      const store = await open()
      await store.put(minimalTask('a'))
      const got = await store.get('a')
      expect(got).toEqual(minimalTask('a'))
      expect(Object.keys(got ?? {}).sort()).toEqual(Object.keys(minimalTask('a')).sort())
    })

    it('round-trips every optional field, nested args and result included', async () => {
      const store = await open()
      await store.put(fullTask('b'))
      expect(await store.get('b')).toEqual(fullTask('b'))
    })

    it('replaces a record entirely, dropping fields the new one lacks', async () => {
      const store = await open()
      await store.put(fullTask('c'))
      await store.put(minimalTask('c', { status: 'running', progress: 0.5 }))
      const got = await store.get('c')
      expect(got).toEqual(minimalTask('c', { status: 'running', progress: 0.5 }))
      expect(got).not.toHaveProperty('etaMs')
      expect(got).not.toHaveProperty('error')
    })

    it('lists every task ordered by id', async () => {
      const store = await open()
      for (const id of ['m', 'b', 'z', 'a', 'k']) await store.put(minimalTask(id))
      expect((await store.list()).map((t) => t.id)).toEqual(['a', 'b', 'k', 'm', 'z'])
    })

    it('filters by status, by schedule, and by both', async () => {
      const store = await open()
      await store.put(minimalTask('1', { status: 'pending', scheduleId: 's1' }))
      await store.put(minimalTask('2', { status: 'running', scheduleId: 's1' }))
      await store.put(minimalTask('3', { status: 'pending', scheduleId: 's2' }))
      await store.put(minimalTask('4', { status: 'completed' }))
      const ids = async (filter: TaskFilter) => (await store.list(filter)).map((t) => t.id)
      expect(await ids({ status: ['pending'] })).toEqual(['1', '3'])
      expect(await ids({ status: ['running', 'completed'] })).toEqual(['2', '4'])
      expect(await ids({ scheduleId: 's1' })).toEqual(['1', '2'])
      expect(await ids({ status: ['pending'], scheduleId: 's1' })).toEqual(['1'])
      expect(await ids({ status: [] })).toEqual([])
      expect(await ids({})).toEqual(['1', '2', '3', '4'])
    })

    it('deletes the given ids at once, ignoring unknown ones', async () => {
      const store = await open()
      for (const id of ['a', 'b', 'c']) await store.put(minimalTask(id))
      await store.delete(['a', 'c', 'nope'])
      expect((await store.list()).map((t) => t.id)).toEqual(['b'])
      await store.delete([])
      expect(await store.get('b')).toEqual(minimalTask('b'))
    })

    it('keeps its records apart from the objects handed in and out', async () => {
      const store = await open()
      const task = fullTask('d')
      await store.put(task)
      task.status = 'completed'
      ;(task.args as { keep: number }).keep = 99
      const got = await store.get('d')
      expect(got).toEqual(fullTask('d'))
      if (got) got.args.snapshot = 'changed'
      const [listed] = await store.list()
      if (listed) listed.progress = 1
      expect(await store.get('d')).toEqual(fullTask('d'))
    })

    it('keeps every one of many concurrent puts', async () => {
      const store = await open()
      const ids = Array.from({ length: 50 }, (_, i) => `t${String(i).padStart(2, '0')}`)
      await Promise.all(ids.map((id) => store.put(minimalTask(id))))
      expect((await store.list()).map((t) => t.id)).toEqual(ids)
    })

    it('writes with putIf only over the expected record, when the store has putIf', async () => {
      const store = await open()
      if (store.putIf === undefined) return
      const pending = minimalTask('p')
      expect(await store.putIf(pending, undefined)).toBe(true)
      expect(await store.putIf(minimalTask('p', { progress: 0.5 }), undefined)).toBe(false)
      const running = minimalTask('p', { status: 'running', owner: 'node-a', startedAt: T0 + 1 })
      const stored = await store.get('p')
      expect(await store.putIf(running, stored)).toBe(true)
      expect(await store.putIf(minimalTask('p', { status: 'cancelled' }), pending)).toBe(false)
      expect(await store.get('p')).toEqual(running)
      const listed = (await store.list()).find((task) => task.id === 'p')
      expect(await store.putIf(fullTask('p'), listed)).toBe(true)
      expect(await store.get('p')).toEqual(fullTask('p'))
      await store.delete(['p'])
      expect(await store.putIf(minimalTask('p'), fullTask('p'))).toBe(false)
      expect(await store.get('p')).toBeUndefined()
    })

    it('lets exactly one of racing putIfs over one expected record win', async () => {
      const store = await open()
      if (store.putIf === undefined) return
      const pending = minimalTask('r')
      await store.put(pending)
      const claims = ['a', 'b', 'c', 'd', 'e'].map((owner) =>
        store.putIf?.(minimalTask('r', { status: 'running', owner }), pending),
      )
      const won = await Promise.all(claims)
      expect(won.filter(Boolean)).toHaveLength(1)
      const winner = ['a', 'b', 'c', 'd', 'e'][won.indexOf(true)]
      expect(await store.get('r')).toMatchObject({ status: 'running', owner: winner })
    })

    it('agrees with a model over a random sequence of puts and deletes', async () => {
      const store = await open()
      const random = createSeededRandom(0x5eed)
      const model = new Map<string, Task>()
      const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
      const scheduleIds = ['s1', 's2', undefined]
      for (let step = 0; step < (options.randomSteps ?? 200); step++) {
        if (random.next() < 0.7) {
          const scheduleId = random.pick(scheduleIds)
          const task = minimalTask(random.pick(ids), {
            status: random.pick(TASK_STATUSES),
            progress: Math.round(random.next() * 100) / 100,
            createdAt: T0 + step,
            ...(scheduleId === undefined ? {} : { scheduleId }),
          })
          await store.put(task)
          model.set(task.id, task)
        } else {
          const doomed = ids.filter(() => random.next() < 0.3)
          await store.delete(doomed)
          for (const id of doomed) model.delete(id)
        }
        const filter: TaskFilter = {
          status: TASK_STATUSES.filter(() => random.next() < 0.5),
        }
        const expected = [...model.values()]
          .filter((task) => matchesTaskFilter(task, filter))
          .sort((a, b) => (a.id < b.id ? -1 : 1))
        expect(await store.list(filter)).toEqual(expected)
        const probe = random.pick(ids)
        expect(await store.get(probe)).toEqual(model.get(probe))
      }
    })
  })
}
