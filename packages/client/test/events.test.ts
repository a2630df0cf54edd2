import type { EventEnvelope } from '@svcdb/events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, isClientError } from '../src'
import type { Client, SubscribeOptions } from '../src'
import { startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

let server: LiveServer
let client: Client

beforeAll(async () => {
  server = await startLiveServer()
  client = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

/** A pending `seen()` of {@link collect}. */
interface Waiter {
  match: (event: EventEnvelope) => boolean
  resolve: (event: EventEnvelope) => void
  reject: (reason: unknown) => void
}

/**
 * A subscription collecting envelopes in the background until `stop()`. `opened` settles once
 * the server has first accepted the stream (`onOpen`), so that what happens from then on is
 * seen; `seen(match)` with the first envelope `match` accepts, received already or still to
 * come. Both reject if the subscription ends first.
 */
function collect(options: Omit<SubscribeOptions, 'signal' | 'onOpen'>) {
  const controller = new AbortController()
  const events: EventEnvelope[] = []
  const waiters = new Set<Waiter>()
  let ended: Error | undefined
  let opens = 0
  let open!: () => void
  let failOpen!: (reason: unknown) => void
  const opened = new Promise<void>((resolve, reject) => {
    open = resolve
    failOpen = reject
  })
  const onOpen = () => {
    opens++
    open()
  }
  const done = (async () => {
    try {
      const signal = controller.signal
      for await (const event of client.events.subscribe({ ...options, signal, onOpen })) {
        events.push(event)
        for (const waiter of waiters)
          if (waiter.match(event)) {
            waiters.delete(waiter)
            waiter.resolve(event)
          }
      }
    } finally {
      ended = new Error('the subscription ended first')
      failOpen(ended)
      for (const waiter of waiters) waiter.reject(ended)
    }
  })()
  // Failures reach the test through `stop()`, `opened` and `seen()`, not as unhandled rejections.
  done.catch(() => undefined)
  opened.catch(() => undefined)
  return {
    events,
    opened,
    /** How many times the server accepted the stream. */
    get opens() {
      return opens
    },
    seen(match: (event: EventEnvelope) => boolean): Promise<EventEnvelope> {
      const found = events.find(match)
      if (found !== undefined) return Promise.resolve(found)
      if (ended !== undefined) return Promise.reject(ended)
      return new Promise((resolve, reject) => waiters.add({ match, resolve, reject }))
    },
    stop: () => {
      controller.abort()
      return done
    },
  }
}

/** The paths of the `entries_created` envelopes among `events`. */
function createdPaths(events: readonly EventEnvelope[]): string[] {
  return events.flatMap((e) =>
    e.event_type === 'entries_created'
      ? (e as EventEnvelope<'entries_created'>).payload.entries.map((entry) => entry.path)
      : [],
  )
}

/** Matches the `entries_created` envelope of `path`. */
const created = (path: string) => (event: EventEnvelope) => createdPaths([event]).includes(path)

describe('events.subscribe', () => {
  it('yields envelopes for writes under the prefix and ends quietly on abort', async () => {
    const sub = collect({ events: ['entries_created'], pathPrefix: '/ev/' })
    await sub.opened
    const written = await client.files.write('/ev/a.txt', 'a')
    await client.files.write('/elsewhere/x.txt', 'x')
    await client.files.delete('/ev/a.txt')
    await client.files.write('/ev/b.txt', 'b')
    // Events come in order: one the filter should have dropped would have come before this.
    await sub.seen(created('/ev/b.txt'))

    expect(createdPaths(sub.events)).toEqual(['/ev/a.txt', '/ev/b.txt'])
    expect(sub.events.every((e) => e.event_type === 'entries_created')).toBe(true)
    const a = sub.events.find((e) => createdPaths([e]).includes('/ev/a.txt'))
    expect(a).toMatchObject({
      event_type: 'entries_created',
      payload: { version: written.version },
    })
    // A change event's id names the database and the change's version-log position: every
    // node of a cluster gives it the same id.
    expect(a?.event_id).toMatch(/^[0-9a-z]+\.[1-9][0-9]*\.[0-9]+$/)

    await expect(sub.stop()).resolves.toBeUndefined()
  })

  it('resumes after a given event id, replaying what it missed', async () => {
    const first = collect({ events: ['entries_created'], pathPrefix: '/resume/' })
    await first.opened
    await client.files.write('/resume/seen', 's')
    const last = await first.seen(created('/resume/seen'))
    await first.stop()

    await client.files.write('/resume/missed-1', '1')
    await client.files.write('/resume/missed-2', '2')
    const second = collect({
      events: ['entries_created'],
      pathPrefix: '/resume/',
      lastEventId: last.event_id,
    })
    await second.seen(created('/resume/missed-2'))
    await second.stop()
    expect(createdPaths(second.events)).toEqual(['/resume/missed-1', '/resume/missed-2'])
    expect(second.events.some((e) => e.event_type === 'events_lost')).toBe(false)
  })

  it('throws BAD_REQUEST from the iterator for an unknown event type', async () => {
    const iterator = client.events
      .subscribe({ events: ['no_such_event' as 'entries_created'] })
      [Symbol.asyncIterator]()
    const err = await iterator.next().catch((e: unknown) => e)
    expect(isClientError(err, 'BAD_REQUEST')).toBe(true)
    expect(err).toMatchObject({ status: 400, message: expect.stringContaining('no_such_event') })
  })

  // Last: it restarts the server.
  it('reconnects by itself after a restart and resumes from the database change log', async () => {
    const sub = collect({
      events: ['entries_created'],
      pathPrefix: '/restart/',
      minDelayMs: 20,
      maxDelayMs: 200,
    })
    await sub.opened
    await client.files.write('/restart/before', 'b')
    await sub.seen(created('/restart/before'))
    await server.restart()
    await client.files.write('/restart/after', 'a')
    await sub.seen(created('/restart/after'))

    // Change events' ids come from the database's version log, not the process: the new
    // process resumes after the last one seen, with nothing lost and nothing twice.
    expect(sub.events.some((e) => e.event_type === 'events_lost')).toBe(false)
    expect(createdPaths(sub.events)).toEqual(['/restart/before', '/restart/after'])
    expect(sub.opens).toBeGreaterThanOrEqual(2)

    await expect(sub.stop()).resolves.toBeUndefined()
  })
})
