import { createLocalLeases } from '@svcdb/engine'
import type { SequencedChange } from '@svcdb/engine'
import { createEventBus } from '@svcdb/events'
import { createScheduler } from '@svcdb/scheduler'
import { describe, expect, it } from 'vitest'
import { createIndexConfigWatch, indexedDirectoryOf } from './index-config-watch'

let seq = 0
const change = (
  type: 'entries_created' | 'entries_deleted',
  path: string,
  fork?: string,
): SequencedChange =>
  ({
    type,
    at: 1,
    fork,
    version: 'v',
    seq: ++seq,
    entries: [{ path, entryType: 'file' as const }],
  }) as SequencedChange

describe('index configuration watch', () => {
  it('names the directory of a configuration path', () => {
    expect(indexedDirectoryOf('/docs/.svcdb/indexes.json')).toBe('/docs')
    expect(indexedDirectoryOf('/.svcdb/indexes.json')).toBe('/')
    expect(indexedDirectoryOf('/docs/indexes.json')).toBeUndefined()
  })

  it('announces a change and replaces a queued or running reindex of the same directory', async () => {
    const bus = createEventBus()
    const scheduler = createScheduler({})
    let release: () => void = () => undefined
    const running = new Promise<void>((resolve) => (release = resolve))
    const seen: string[] = []
    scheduler.tasks.register('reindex', async ({ args, signal }) => {
      seen.push(String(args.path))
      await Promise.race([
        running,
        new Promise((resolve) => signal.addEventListener('abort', resolve)),
      ])
      return { path: args.path }
    })
    await scheduler.start()
    const errors: unknown[] = []
    const watch = createIndexConfigWatch({
      bus,
      tasks: scheduler.tasks,
      onError: (e) => errors.push(e),
    })
    const events = bus.subscribe({ events: ['indexes_changed'] })
    try {
      await watch(change('entries_created', '/docs/.svcdb/indexes.json'))
      await watch(change('entries_created', '/docs/.svcdb/indexes.json'))
      await watch(change('entries_created', '/docs/other.json'))
      await watch(change('entries_created', '/docs/.svcdb/indexes.json', 'a-fork'))
      await watch(change('entries_deleted', '/logs/.svcdb/indexes.json'))
      const published = await events.take(10)
      expect(published.map((e) => e.payload)).toEqual([
        { path: '/docs' },
        { path: '/docs' },
        { path: '/logs' },
      ])
      const tasks = await scheduler.tasks.list()
      const reindexes = tasks.filter((t) => t.taskType === 'reindex')
      expect(reindexes).toHaveLength(2)
      expect(reindexes.filter((t) => t.status === 'cancelled')).toHaveLength(1)
      expect(reindexes.filter((t) => t.status !== 'cancelled')).toHaveLength(1)
      expect(errors).toEqual([])
    } finally {
      release()
      events.close()
      await scheduler.stop()
      await bus.close()
    }
  })

  it('enqueues one reindex per change when several nodes see it and claim it', async () => {
    const leases = createLocalLeases()
    const scheduler = createScheduler({})
    scheduler.tasks.register('reindex', async ({ args }) => ({ path: args.path }))
    const claimReindex = async (dir: string, at: number) => {
      const claim = await leases.claim(`reindex:${dir}`, at, 60_000)
      if (claim === undefined) return false
      await claim.finish()
      return true
    }
    // Two nodes' watches (each with its own bus) over one task list, as on one shared database.
    const buses = [createEventBus(), createEventBus()]
    const watches = buses.map((bus) =>
      createIndexConfigWatch({
        bus,
        tasks: scheduler.tasks,
        onError: (e) => {
          throw e
        },
        claimReindex,
      }),
    )
    try {
      const first = change('entries_created', '/docs/.svcdb/indexes.json')
      const second = change('entries_created', '/docs/.svcdb/indexes.json')
      await Promise.all(watches.map((watch) => watch(first)))
      await Promise.all(watches.map((watch) => watch(second)))
      const reindexes = (await scheduler.tasks.list()).filter((t) => t.taskType === 'reindex')
      expect(reindexes).toHaveLength(2)
    } finally {
      await scheduler.stop()
      for (const bus of buses) bus.close()
      await leases.close()
    }
  })
})
