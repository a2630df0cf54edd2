import { describe, expect, it } from 'vitest'
import { isEventsError } from './errors'
import { createEventBus } from './event-bus'
import type { EventEnvelope } from './event-types'
import { createFakeClock } from './testing/fake-clock'

const file = (path: string) => ({ entries: [{ path, entry_type: 'file' as const }] })

describe('createEventBus', () => {
  it('wraps payloads in envelopes with ids, types and clock timestamps', async () => {
    const clock = createFakeClock(1_700_000_000_000)
    const bus = createEventBus({ clock, bootId: 'b1' })
    const sub = bus.subscribe()
    const published = bus.publish('entries_created', file('/a.txt'))
    expect(published).toEqual({
      event_id: 'b1-1',
      event_type: 'entries_created',
      timestamp: 1_700_000_000_000,
      payload: file('/a.txt'),
    })
    expect(await sub.take()).toEqual([published])
    expect(bus.lastEventId).toBe('b1-1')
  })

  it('issues unique, increasing ids', () => {
    const bus = createEventBus()
    const ids = Array.from(
      { length: 1000 },
      (_, i) => bus.publish('indexes_changed', { path: `/d${i}` }).event_id,
    )
    expect(new Set(ids).size).toBe(1000)
    const seqs = ids.map((id) => Number(id.slice(id.lastIndexOf('-') + 1)))
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1] as number)
    expect(ids.every((id) => id.startsWith(`${bus.bootId}-`))).toBe(true)
  })

  it('gives each bus its own boot id by default', () => {
    expect(createEventBus().bootId).not.toBe(createEventBus().bootId)
  })

  it('delivers to every subscriber through its own filters and authorization', async () => {
    const bus = createEventBus()
    const all = bus.subscribe()
    const docs = bus.subscribe({ pathPrefix: '/docs/' })
    const deletes = bus.subscribe({ events: ['entries_deleted'] })
    const scoped = bus.subscribe({ canRead: (path) => path.startsWith('/mine/') })
    bus.publish('entries_created', { entries: [{ path: '/docs/a' }, { path: '/mine/b' }] })
    bus.publish('entries_deleted', file('/tmp/x'))
    bus.publish('heartbeat', { intent_time: 1, construct_time: 2, node_id: 0 })

    const types = async (s: typeof all) => (await s.take()).map((e) => e.event_type)
    expect(await types(all)).toEqual(['entries_created', 'entries_deleted', 'heartbeat'])
    expect(await types(docs)).toEqual(['entries_created'])
    expect(await types(deletes)).toEqual(['entries_deleted'])
    const seen = await scoped.take()
    expect(seen.map((e) => e.event_type)).toEqual(['entries_created', 'heartbeat'])
    const first = seen[0] as EventEnvelope<'entries_created'>
    expect(first.payload.entries).toEqual([{ path: '/mine/b' }])
  })

  it('iterates with for await and stops the subscription on break', async () => {
    const bus = createEventBus()
    const sub = bus.subscribe()
    for (let i = 0; i < 5; i++) bus.publish('indexes_changed', { path: `/p${i}` })
    const paths: string[] = []
    for await (const event of sub) {
      if (event.event_type === 'indexes_changed') paths.push(event.payload.path)
      if (paths.length === 3) break
    }
    expect(paths).toEqual(['/p0', '/p1', '/p2'])
    expect(sub.closed).toBe(true)
    expect(bus.subscriberCount).toBe(0)
  })

  it('wakes a waiting subscriber and ends it when closed', async () => {
    const bus = createEventBus()
    const sub = bus.subscribe()
    const waiting = sub.take()
    bus.publish('permissions_changed', { path: '/a' })
    expect((await waiting).map((e) => e.event_type)).toEqual(['permissions_changed'])
    const ended = sub.take()
    sub.close()
    expect(await ended).toEqual([])
    bus.publish('permissions_changed', { path: '/b' })
    expect(await sub.take()).toEqual([])
  })

  it('refuses relative paths, unknown and internal types', () => {
    const bus = createEventBus()
    expect(() => bus.publish('entries_created', file('a.txt'))).toThrow(RangeError)
    expect(() => bus.publish('indexes_changed', { path: '' })).toThrow(RangeError)
    // @ts-expect-error events_lost is made per subscriber, never published
    expect(() => bus.publish('events_lost', { last_event_id: 'x', reason: 'unknown' })).toThrow(
      TypeError,
    )
    // @ts-expect-error not an event type
    expect(() => bus.publish('entries_moved', {})).toThrow(TypeError)
    expect(bus.lastEventId).toBeUndefined()
  })

  it('refuses bad options at once', () => {
    expect(() => createEventBus({ replaySize: -1 })).toThrow(RangeError)
    expect(() => createEventBus({ queueSize: 0 })).toThrow(RangeError)
    expect(() => createEventBus({ nodeId: -2 })).toThrow(RangeError)
    expect(() => createEventBus({ bootId: 'has-dash' })).toThrow(RangeError)
    expect(() => createEventBus().subscribe({ queueSize: 0 })).toThrow(RangeError)
  })

  it('ends every subscription on close and then refuses work with CLOSED', async () => {
    const bus = createEventBus()
    const subs = [bus.subscribe(), bus.subscribe()]
    const waits = subs.map((s) => s.take())
    bus.close()
    expect(await Promise.all(waits)).toEqual([[], []])
    expect(bus.closed).toBe(true)
    expect(bus.subscriberCount).toBe(0)
    const attempts = [() => bus.publish('indexes_changed', { path: '/a' }), () => bus.subscribe()]
    for (const attempt of attempts) {
      let caught: unknown
      try {
        attempt()
      } catch (err) {
        caught = err
      }
      expect(isEventsError(caught, 'CLOSED')).toBe(true)
    }
  })
})
