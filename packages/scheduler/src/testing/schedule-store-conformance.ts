import { afterEach, describe, expect, it } from 'vitest'
import type { CronSchedule } from '../cron-schedule'
import type { ScheduleStore } from '../schedule-store'
import { createSeededRandom } from './seeded-random'
import type { StoreConformanceOptions } from './task-store-conformance'

const T0 = Date.UTC(2026, 0, 1)

function minimalSchedule(id: string, overrides: Partial<CronSchedule> = {}): CronSchedule {
  return {
    id,
    schedule: '0 3 * * *',
    taskType: 'gc',
    args: { dry_run: false },
    enabled: false,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  }
}

function fullSchedule(id: string): CronSchedule {
  return {
    id,
    schedule: '*/15 * * * 1-5',
    taskType: 'backup',
    args: { dir: '/var/backups', keep: 7, nested: { list: [1, 'two', null] } },
    enabled: true,
    createdAt: T0,
    updatedAt: T0 + 5000,
    nextRunAt: T0 + 900_000,
    lastRunAt: T0 + 60_000,
    lastTaskId: '0190f3a2-0000-7000-8000-000000000000',
  }
}

/**
 * Registers a vitest suite that checks a {@link ScheduleStore} implementation against the
 * port's contract.
 *
 * @example
 * runScheduleStoreConformance('memory', () => createMemoryScheduleStore())
 */
export function runScheduleStoreConformance<S extends ScheduleStore>(
  name: string,
  makeStore: () => S | Promise<S>,
  options: StoreConformanceOptions<S> = {},
): void {
  describe(`ScheduleStore conformance: ${name}`, () => {
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

    it('round-trips a schedule with only the required fields, adding no keys', async () => {
      const store = await open()
      await store.put(minimalSchedule('a'))
      const got = await store.get('a')
      expect(got).toEqual(minimalSchedule('a'))
      expect(Object.keys(got ?? {}).sort()).toEqual(Object.keys(minimalSchedule('a')).sort())
    })

    it('round-trips every optional field and nested args', async () => {
      const store = await open()
      await store.put(fullSchedule('b'))
      expect(await store.get('b')).toEqual(fullSchedule('b'))
    })

    it('replaces a record entirely, dropping fields the new one lacks', async () => {
      const store = await open()
      await store.put(fullSchedule('c'))
      await store.put(minimalSchedule('c'))
      const got = await store.get('c')
      expect(got).toEqual(minimalSchedule('c'))
      expect(got).not.toHaveProperty('nextRunAt')
    })

    it('lists every schedule ordered by id', async () => {
      const store = await open()
      for (const id of ['nightly', 'backup-2', 'backup-10', 'Z', 'a']) {
        await store.put(minimalSchedule(id))
      }
      expect((await store.list()).map((s) => s.id)).toEqual([
        'Z',
        'a',
        'backup-10',
        'backup-2',
        'nightly',
      ])
    })

    it('deletes one schedule, ignoring an unknown id', async () => {
      const store = await open()
      await store.put(minimalSchedule('a'))
      await store.put(minimalSchedule('b'))
      await store.delete('a')
      await store.delete('nope')
      expect((await store.list()).map((s) => s.id)).toEqual(['b'])
    })

    it('keeps its records apart from the objects handed in and out', async () => {
      const store = await open()
      const schedule = fullSchedule('d')
      await store.put(schedule)
      schedule.enabled = false
      schedule.args.keep = 1
      const got = await store.get('d')
      expect(got).toEqual(fullSchedule('d'))
      if (got) got.args.dir = '/elsewhere'
      const [listed] = await store.list()
      if (listed) listed.schedule = '* * * * *'
      expect(await store.get('d')).toEqual(fullSchedule('d'))
    })

    it('writes with putIf only over the expected record, when the store has putIf', async () => {
      const store = await open()
      if (store.putIf === undefined) return
      expect(await store.putIf(minimalSchedule('s'), undefined)).toBe(true)
      expect(await store.putIf(minimalSchedule('s'), undefined)).toBe(false)
      const stored = await store.get('s')
      const moved = minimalSchedule('s', { nextRunAt: T0 + 60_000 })
      expect(await store.putIf(moved, stored)).toBe(true)
      expect(await store.putIf(minimalSchedule('s', { enabled: false }), stored)).toBe(false)
      expect(await store.get('s')).toEqual(moved)
      const racing = await Promise.all(
        [1, 2, 3].map((n) => store.putIf?.(minimalSchedule('s', { lastRunAt: n }), moved)),
      )
      expect(racing.filter(Boolean)).toHaveLength(1)
    })

    it('agrees with a model over a random sequence of puts and deletes', async () => {
      const store = await open()
      const random = createSeededRandom(0xc0ffee)
      const model = new Map<string, CronSchedule>()
      const ids = ['a', 'b', 'c', 'd', 'e']
      for (let step = 0; step < (options.randomSteps ?? 200); step++) {
        const id = random.pick(ids)
        if (random.next() < 0.7) {
          const schedule = random.next() < 0.5 ? minimalSchedule(id) : fullSchedule(id)
          schedule.updatedAt = T0 + step
          await store.put(schedule)
          model.set(id, schedule)
        } else {
          await store.delete(id)
          model.delete(id)
        }
        const expected = [...model.values()].sort((a, b) => (a.id < b.id ? -1 : 1))
        expect(await store.list()).toEqual(expected)
        expect(await store.get(id)).toEqual(model.get(id))
      }
    })
  })
}
