import type { EventEnvelope, EventType } from '@svcdb/events'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createClient, isClientError } from '../src'
import type { Client, SubscriptionErrorSource } from '../src'
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
afterEach(() => {
  vi.restoreAllMocks()
})

function createdPaths(events: readonly EventEnvelope[]): string[] {
  return events.flatMap((e) =>
    e.event_type === 'entries_created'
      ? (e as EventEnvelope<'entries_created'>).payload.entries.map((entry) => entry.path)
      : [],
  )
}

/**
 * Conditions on what callbacks have collected, each settled by the callback that makes it
 * true: tests wait on the events themselves, never on time.
 */
class Progress {
  readonly #waiters = new Set<{ check: () => boolean; resolve: () => void }>()

  /** Called after every change: settles the conditions that now hold. */
  changed(): void {
    for (const waiter of this.#waiters)
      if (waiter.check()) {
        this.#waiters.delete(waiter)
        waiter.resolve()
      }
  }

  /** Settles once `check` holds (at once when it already does). */
  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve()
    return new Promise((resolve) => this.#waiters.add({ check, resolve }))
  }
}

/** A promise settled by `onOpen`: from then on the server sends what happens. */
function opening() {
  let onOpen!: () => void
  const opened = new Promise<void>((resolve) => (onOpen = resolve))
  return { opened, onOpen }
}

describe('events.subscribe(options, callback)', () => {
  it('calls back for each event in order, one at a time, until unsubscribed', async () => {
    const events: EventEnvelope[] = []
    const progress = new Progress()
    // The callback of the first event is held until another subscription has seen the last:
    // by then the later events have reached this stream too, and a subscription that ran
    // callbacks side by side would have started theirs.
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const first = opening()
    let running = 0
    let overlapped = false
    const unsubscribe = client.events.subscribe(
      { events: ['entries_created'], pathPrefix: '/cb/', onOpen: first.onOpen },
      async (event) => {
        overlapped ||= running > 0
        running++
        if (createdPaths([event]).includes('/cb/a.txt')) await held
        events.push(event)
        running--
        progress.changed()
      },
    )
    const observed: EventEnvelope[] = []
    const watching = opening()
    const stopWatching = client.events.subscribe(
      { events: ['entries_created'], pathPrefix: '/cb/', onOpen: watching.onOpen },
      (event) => {
        observed.push(event)
        progress.changed()
      },
    )
    await Promise.all([first.opened, watching.opened])
    for (const name of ['a', 'b', 'c']) await client.files.write(`/cb/${name}.txt`, name)
    await progress.until(() => createdPaths(observed).includes('/cb/c.txt'))
    await stopWatching()
    expect(events).toEqual([])
    release()
    await progress.until(() => createdPaths(events).includes('/cb/c.txt'))
    expect(createdPaths(events)).toEqual(['/cb/a.txt', '/cb/b.txt', '/cb/c.txt'])
    expect(overlapped).toBe(false)

    await expect(unsubscribe()).resolves.toBeUndefined()
    const count = events.length
    // A second subscription proves the next write made an event the first no longer gets.
    const later: EventEnvelope[] = []
    const second = opening()
    const stop = client.events.subscribe({ pathPrefix: '/cb/', onOpen: second.onOpen }, (e) => {
      later.push(e)
      progress.changed()
    })
    await second.opened
    await client.files.write('/cb/after.txt', 'x')
    await progress.until(() => createdPaths(later).includes('/cb/after.txt'))
    await stop()
    expect(events).toHaveLength(count)
  })

  it('hands a throwing callback to onError and goes on with the next event', async () => {
    const seen: string[] = []
    const errors: [unknown, SubscriptionErrorSource][] = []
    const progress = new Progress()
    const { opened, onOpen } = opening()
    const unsubscribe = client.events.subscribe(
      {
        events: ['entries_created'],
        pathPrefix: '/throw/',
        onOpen,
        onError: (err, source) => void errors.push([err, source]),
      },
      async (event) => {
        const paths = createdPaths([event])
        seen.push(...paths)
        progress.changed()
        if (paths.includes('/throw/bad.txt')) throw new Error('callback broke')
        if (paths.includes('/throw/reject.txt')) await Promise.reject(new Error('async broke'))
      },
    )
    await opened
    for (const name of ['bad', 'reject', 'good']) await client.files.write(`/throw/${name}.txt`, '')
    await progress.until(() => seen.includes('/throw/good.txt'))
    await unsubscribe()
    expect(seen).toEqual(['/throw/bad.txt', '/throw/reject.txt', '/throw/good.txt'])
    expect(errors.map(([err, source]) => [(err as Error).message, source])).toEqual([
      ['callback broke', 'callback'],
      ['async broke', 'callback'],
    ])
  })

  it('writes callback errors with console.error when there is no onError', async () => {
    let reported!: () => void
    const logging = new Promise<void>((resolve) => (reported = resolve))
    const logged = vi.spyOn(console, 'error').mockImplementation(() => reported())
    const { opened, onOpen } = opening()
    const unsubscribe = client.events.subscribe({ pathPrefix: '/log/', onOpen }, (event) => {
      if (createdPaths([event]).length > 0) throw new Error('unhandled in callback')
    })
    await opened
    await client.files.write('/log/x.txt', 'x')
    await logging
    await unsubscribe()
    expect(logged.mock.calls[0]?.[0]).toMatch(/events\.subscribe: the callback failed/)
    expect((logged.mock.calls[0]?.[1] as Error).message).toBe('unhandled in callback')
  })

  it('reports an error no reconnection fixes as a stream error, and ends', async () => {
    const errors: [unknown, SubscriptionErrorSource][] = []
    const progress = new Progress()
    const callback = vi.fn()
    const unsubscribe = client.events.subscribe(
      {
        events: ['no_such_event' as EventType],
        onError: (err, source) => {
          errors.push([err, source])
          progress.changed()
        },
      },
      callback,
    )
    await progress.until(() => errors.length > 0)
    await unsubscribe()
    expect(errors).toHaveLength(1)
    expect(errors[0]?.[1]).toBe('stream')
    expect(isClientError(errors[0]?.[0])).toBe(true)
    expect((errors[0]?.[0] as { status: number }).status).toBe(400)
    expect(callback).not.toHaveBeenCalled()
  })

  it('ends when the caller signal aborts, and refuses a callback that is not a function', async () => {
    const controller = new AbortController()
    const unsubscribe = client.events.subscribe({ signal: controller.signal }, () => undefined)
    controller.abort()
    await expect(unsubscribe()).resolves.toBeUndefined()
    expect(() => client.events.subscribe({}, 'nope' as never)).toThrow(TypeError)
  })
})
