import { describe, expect, it } from 'vitest'
import { createEventBus } from './event-bus'
import type { EventEnvelope } from './event-types'

const publishMany = (bus: ReturnType<typeof createEventBus>, from: number, to: number) => {
  const ids: string[] = []
  for (let i = from; i <= to; i++)
    ids.push(bus.publish('entries_created', { entries: [{ path: `/f${i}` }] }).event_id)
  return ids
}
const paths = (events: EventEnvelope[]) =>
  events.map((e) =>
    e.event_type === 'entries_created' ? e.payload.entries[0]?.path : e.event_type,
  )

describe('event bus replay', () => {
  it('replays what a reconnecting client missed, then continues live', async () => {
    const bus = createEventBus({ replaySize: 100, bootId: 'boot' })
    const ids = publishMany(bus, 1, 10)
    const sub = bus.subscribe({ lastEventId: ids[6] })
    bus.publish('entries_created', { entries: [{ path: '/live' }] })
    expect(paths(await sub.take())).toEqual(['/f8', '/f9', '/f10'])
    expect(paths(await sub.take())).toEqual(['/live'])
  })

  it('replays in batches of max and through the filters', async () => {
    const bus = createEventBus({ replaySize: 100 })
    publishMany(bus, 1, 3)
    const from = bus.lastEventId
    bus.publish('indexes_changed', { path: '/x' })
    publishMany(bus, 4, 8)
    const sub = bus.subscribe({
      lastEventId: from,
      events: ['entries_created'],
      canRead: (path) => path !== '/f5',
    })
    expect(paths(await sub.take(2))).toEqual(['/f4', '/f6'])
    expect(paths(await sub.take())).toEqual(['/f7', '/f8'])
  })

  it('replays nothing for the newest id and for no id', async () => {
    const bus = createEventBus()
    publishMany(bus, 1, 3)
    const upToDate = bus.subscribe({ lastEventId: bus.lastEventId })
    const fresh = bus.subscribe({ lastEventId: null })
    publishMany(bus, 4, 4)
    expect(paths(await upToDate.take())).toEqual(['/f4'])
    expect(paths(await fresh.take())).toEqual(['/f4'])
  })

  it('sends events_lost first when the id is older than the buffer', async () => {
    const bus = createEventBus({ replaySize: 5, bootId: 'b' })
    const ids = publishMany(bus, 1, 20)
    const sub = bus.subscribe({ lastEventId: ids[2] })
    const [lost] = await sub.take()
    expect(lost).toMatchObject({
      event_type: 'events_lost',
      payload: { last_event_id: 'b-3', reason: 'expired' },
    })
    bus.publish('entries_created', { entries: [{ path: '/after' }] })
    const [next] = await sub.take()
    expect(paths([next as EventEnvelope])).toEqual(['/after'])
    // The notice's id sits between what was published before and after it.
    const seq = (e: EventEnvelope | undefined) => Number(e?.event_id.split('-')[1])
    expect(seq(lost)).toBeGreaterThan(20)
    expect(seq(next)).toBeGreaterThan(seq(lost))
  })

  it('resumes without loss from the id of an events_lost notice', async () => {
    const bus = createEventBus({ replaySize: 5 })
    publishMany(bus, 1, 20)
    const [lost] = await bus.subscribe({ lastEventId: 'zzz-1' }).take()
    publishMany(bus, 21, 22)
    const again = bus.subscribe({ lastEventId: lost?.event_id ?? null })
    expect(paths(await again.take())).toEqual(['/f21', '/f22'])
  })

  it('treats the last id just before the buffer as fully replayable', async () => {
    const bus = createEventBus({ replaySize: 5 })
    const ids = publishMany(bus, 1, 10)
    const sub = bus.subscribe({ lastEventId: ids[4] }) // f5 was the last evicted event
    expect(paths(await sub.take())).toEqual(['/f6', '/f7', '/f8', '/f9', '/f10'])
  })

  it.each([
    ['malformed', 'not an id'],
    ['from another boot', 'otherboot-3'],
    ['not issued yet', 'b-999'],
  ])('sends events_lost for an id that is %s, then goes live', async (_, id) => {
    const bus = createEventBus({ bootId: 'b' })
    publishMany(bus, 1, 5)
    const sub = bus.subscribe({ lastEventId: id })
    expect(await sub.take()).toEqual([
      expect.objectContaining({
        event_type: 'events_lost',
        payload: { last_event_id: id, reason: 'unknown' },
      }),
    ])
    publishMany(bus, 6, 6)
    expect(paths(await sub.take())).toEqual(['/f6'])
  })

  it('sends events_lost whatever the type filter asks for', async () => {
    const bus = createEventBus({ replaySize: 1 })
    const ids = publishMany(bus, 1, 3)
    const sub = bus.subscribe({ lastEventId: ids[0], events: ['heartbeat'], pathPrefix: '/x' })
    expect((await sub.take()).map((e) => e.event_type)).toEqual(['events_lost'])
  })

  it('reports loss when the buffer overtakes a replay in progress', async () => {
    const bus = createEventBus({ replaySize: 10 })
    const ids = publishMany(bus, 1, 10)
    const sub = bus.subscribe({ lastEventId: ids[0] })
    expect(paths(await sub.take(2))).toEqual(['/f2', '/f3'])
    publishMany(bus, 11, 30) // evicts the rest of the replay range, and more
    const [lost, ...rest] = await sub.take()
    expect(lost?.event_type).toBe('events_lost')
    expect(rest).toEqual([])
    publishMany(bus, 31, 31)
    expect(paths(await sub.take())).toEqual(['/f31'])
  })

  it('keeps no events with replaySize 0', async () => {
    const bus = createEventBus({ replaySize: 0 })
    const ids = publishMany(bus, 1, 2)
    expect((await bus.subscribe({ lastEventId: ids[0] }).take())[0]?.event_type).toBe('events_lost')
    expect(
      await Promise.race([bus.subscribe({ lastEventId: ids[1] }).take(), Promise.resolve('none')]),
    ).toBe('none')
  })
})
