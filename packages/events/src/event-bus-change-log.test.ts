import { describe, expect, it } from 'vitest'
import type { ChangeEvent, ChangeLog, ChangePosition } from './change-log'
import { createEventBus } from './event-bus'
import type { EventBus } from './event-bus'
import type { EventEnvelope } from './event-types'

/** A database's history as both nodes see it: change events at positions. */
function fakeLog(id = 'db1'): ChangeLog & { events: ChangeEvent[]; fail: boolean } {
  const log = {
    id,
    events: [] as ChangeEvent[],
    fail: false,
    async *replay(after: ChangePosition) {
      if (log.fail) throw new Error('trimmed')
      for (const event of [...log.events]) {
        const { seq, part } = event.position
        if (seq > after.seq || (seq === after.seq && part > after.part)) yield event
      }
    },
  }
  return log
}

/** Commits a change: into the log, and published on the given buses (those that saw it). */
function commit(
  log: ReturnType<typeof fakeLog>,
  seq: number,
  paths: string[],
  ...buses: EventBus[]
) {
  const ids: string[] = []
  paths.forEach((path, part) => {
    const event: ChangeEvent<'entries_created'> = {
      type: 'entries_created',
      payload: { entries: [{ path }] },
      position: { seq, part },
    }
    log.events.push(event)
    for (const bus of buses)
      ids.push(bus.publish(event.type, event.payload, { position: event.position }).event_id)
  })
  return ids
}

const brief = (events: EventEnvelope[]) =>
  events.map((e) =>
    e.event_type === 'entries_created'
      ? `${e.event_id} ${e.payload.entries[0]?.path}`
      : e.event_type === 'events_lost'
        ? `lost:${e.payload.reason}`
        : e.event_type,
  )

/** At least `n` events, or fewer once the subscription ends. */
async function takeAll(sub: { take(): Promise<EventEnvelope[]> }, n: number) {
  const out: EventEnvelope[] = []
  while (out.length < n) {
    const batch = await sub.take()
    if (batch.length === 0) break
    out.push(...batch)
  }
  return out
}

describe('event bus with a change log', () => {
  it('gives change events the same id on every node and node events their own', () => {
    const log = fakeLog()
    const a = createEventBus({ bootId: 'a', changeLog: log })
    const b = createEventBus({ bootId: 'b', changeLog: log })
    const ids = commit(log, 1, ['/x', '/y'], a, b)
    expect(ids).toEqual(['db1.1.0', 'db1.1.0', 'db1.1.1', 'db1.1.1'])
    expect(a.publish('indexes_changed', { path: '/i' }).event_id).toBe('a-3')
    expect(b.publish('indexes_changed', { path: '/i' }).event_id).toBe('b-3')
    // A position that does not follow the previous one gets a node id (ids stay unique).
    expect(
      a.publish('entries_created', { entries: [{ path: '/z' }] }, { position: { seq: 1, part: 0 } })
        .event_id,
    ).toBe('a-4')
  })

  it("resumes on another node from its buffer with the first node's id", async () => {
    const log = fakeLog()
    const a = createEventBus({ bootId: 'a', changeLog: log })
    const b = createEventBus({ bootId: 'b', changeLog: log })
    const [first] = commit(log, 1, ['/1'], a, b)
    b.publish('indexes_changed', { path: '/local' })
    commit(log, 2, ['/2'], a, b)
    const sub = b.subscribe({ lastEventId: first })
    commit(log, 3, ['/3'], a, b)
    expect(brief(await takeAll(sub, 3))).toEqual(['indexes_changed', 'db1.2.0 /2', 'db1.3.0 /3'])
  })

  it('replays from the log what the buffer no longer holds, then the buffer, then live, each once', async () => {
    const log = fakeLog()
    const a = createEventBus({ bootId: 'a', changeLog: log })
    const b = createEventBus({ bootId: 'b', changeLog: log, replaySize: 4 })
    const [from] = commit(log, 1, ['/1'], a)
    commit(log, 2, ['/2a', '/2b'], a, b)
    commit(log, 3, ['/3'], a, b)
    b.publish('indexes_changed', { path: '/old-local' })
    // Committed, but this node's bus has not published it yet (its catch-up lags).
    commit(log, 4, ['/4'], a)
    const sub = b.subscribe({ lastEventId: from })
    b.publish('indexes_changed', { path: '/new-local' })
    commit(log, 4, [], b)
    b.publish('entries_created', { entries: [{ path: '/4' }] }, { position: { seq: 4, part: 0 } })
    commit(log, 5, ['/5'], a, b)
    const events = await takeAll(sub, 6)
    expect(brief(events)).toEqual([
      'db1.2.0 /2a',
      'db1.2.1 /2b',
      'db1.3.0 /3',
      'db1.4.0 /4',
      'db1.5.0 /5',
      'indexes_changed',
    ])
    expect(events.at(-1)).toMatchObject({ payload: { path: '/new-local' } })
    commit(log, 6, ['/6'], b)
    expect(brief(await sub.take())).toEqual(['db1.6.0 /6'])
  })

  it('resumes mid-change after the part the client got', async () => {
    const log = fakeLog()
    const a = createEventBus({ bootId: 'a', changeLog: log })
    const b = createEventBus({ bootId: 'b', changeLog: log })
    const ids = commit(log, 7, ['/p0', '/p1', '/p2'], a)
    const sub = b.subscribe({ lastEventId: ids[1], events: ['entries_created'] })
    expect(brief(await takeAll(sub, 1))).toEqual(['db1.7.2 /p2'])
  })

  it('answers events_lost for another database, and when the log no longer holds the position', async () => {
    const log = fakeLog()
    const b = createEventBus({ bootId: 'b', changeLog: log })
    commit(log, 1, ['/1'], b)
    const other = b.subscribe({ lastEventId: 'db2.1.0' })
    expect(brief(await other.take())).toEqual(['lost:unknown'])
    log.fail = true
    const trimmed = b.subscribe({ lastEventId: 'db1.0.0' })
    expect(brief(await trimmed.take())).toEqual(['lost:expired'])
    commit(log, 2, ['/2'], b)
    expect(brief(await trimmed.take())).toEqual(['db1.2.0 /2'])
    // Without a change log, change ids are unknown.
    const plain = createEventBus({ bootId: 'p' })
    expect(brief(await plain.subscribe({ lastEventId: 'db1.1.0' }).take())).toEqual([
      'lost:unknown',
    ])
  })

  it('stops a replay in progress when the subscription closes', async () => {
    const log = fakeLog()
    let aborted: AbortSignal | undefined
    const slow: ChangeLog = {
      id: log.id,
      async *replay(_after, signal) {
        aborted = signal
        yield* log.replay({ seq: 0, part: 0 }, signal)
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()))
      },
    }
    const b = createEventBus({ bootId: 'b', changeLog: slow, replaySize: 1 })
    commit(log, 1, ['/1', '/2'], b)
    const sub = b.subscribe({ lastEventId: 'db1.0.0' })
    expect(brief(await sub.take(2))).toEqual(['db1.1.0 /1', 'db1.1.1 /2'])
    const pending = sub.take()
    await new Promise((resolve) => setTimeout(resolve, 5))
    sub.close()
    expect(await pending).toEqual([])
    expect(aborted?.aborted).toBe(true)
  })
})
