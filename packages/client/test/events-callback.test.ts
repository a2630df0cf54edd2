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

/** Waits until `check` holds, polling (fails the test after ~5 s). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25))
  expect(check()).toBe(true)
}

/** Writes probes under `dir` until `seen` lists one: the stream opens in the background. */
async function probe(dir: string, seen: () => readonly EventEnvelope[]): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await client.files.write(`${dir}/probe-${i}`, 'probe')
    await new Promise((r) => setTimeout(r, 25))
    if (createdPaths(seen()).some((p) => p.startsWith(`${dir}/probe-`))) return
  }
  throw new Error('the subscription saw no probe')
}

const real = (paths: string[]) => paths.filter((p) => !p.includes('/probe-'))

describe('events.subscribe(options, callback)', () => {
  it('calls back for each event in order, one at a time, until unsubscribed', async () => {
    const events: EventEnvelope[] = []
    let running = 0
    let overlapped = false
    const unsubscribe = client.events.subscribe(
      { events: ['entries_created'], pathPrefix: '/cb/' },
      async (event) => {
        overlapped ||= running > 0
        running++
        // An asynchronous callback: the next event waits for it.
        await new Promise((r) => setTimeout(r, 5))
        events.push(event)
        running--
      },
    )
    await probe('/cb', () => events)
    for (const name of ['a', 'b', 'c']) await client.files.write(`/cb/${name}.txt`, name)
    await until(() => createdPaths(events).includes('/cb/c.txt'))
    expect(real(createdPaths(events))).toEqual(['/cb/a.txt', '/cb/b.txt', '/cb/c.txt'])
    expect(overlapped).toBe(false)

    await expect(unsubscribe()).resolves.toBeUndefined()
    const count = events.length
    // A second subscription proves the next write made an event the first no longer gets.
    const later: EventEnvelope[] = []
    const second = client.events.subscribe({ pathPrefix: '/cb/' }, (e) => void later.push(e))
    await probe('/cb', () => later)
    await client.files.write('/cb/after.txt', 'x')
    await until(() => createdPaths(later).includes('/cb/after.txt'))
    await second()
    expect(events).toHaveLength(count)
  })

  it('hands a throwing callback to onError and goes on with the next event', async () => {
    const seen: string[] = []
    const errors: [unknown, SubscriptionErrorSource][] = []
    const events: EventEnvelope[] = []
    const unsubscribe = client.events.subscribe(
      {
        events: ['entries_created'],
        pathPrefix: '/throw/',
        onError: (err, source) => void errors.push([err, source]),
      },
      async (event) => {
        events.push(event)
        const paths = real(createdPaths([event]))
        seen.push(...paths)
        if (paths.includes('/throw/bad.txt')) throw new Error('callback broke')
        if (paths.includes('/throw/reject.txt')) await Promise.reject(new Error('async broke'))
      },
    )
    await probe('/throw', () => events)
    for (const name of ['bad', 'reject', 'good']) await client.files.write(`/throw/${name}.txt`, '')
    await until(() => seen.includes('/throw/good.txt'))
    await unsubscribe()
    expect(seen).toEqual(['/throw/bad.txt', '/throw/reject.txt', '/throw/good.txt'])
    expect(errors.map(([err, source]) => [(err as Error).message, source])).toEqual([
      ['callback broke', 'callback'],
      ['async broke', 'callback'],
    ])
  })

  it('writes callback errors with console.error when there is no onError', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const events: EventEnvelope[] = []
    const unsubscribe = client.events.subscribe({ pathPrefix: '/log/' }, (event) => {
      events.push(event)
      if (real(createdPaths([event])).length > 0) throw new Error('unhandled in callback')
    })
    await probe('/log', () => events)
    await client.files.write('/log/x.txt', 'x')
    await until(() => logged.mock.calls.length > 0)
    await unsubscribe()
    expect(logged.mock.calls[0]?.[0]).toMatch(/events\.subscribe: the callback failed/)
    expect((logged.mock.calls[0]?.[1] as Error).message).toBe('unhandled in callback')
  })

  it('reports an error no reconnection fixes as a stream error, and ends', async () => {
    const errors: [unknown, SubscriptionErrorSource][] = []
    const callback = vi.fn()
    const unsubscribe = client.events.subscribe(
      {
        events: ['no_such_event' as EventType],
        onError: (err, source) => void errors.push([err, source]),
      },
      callback,
    )
    await until(() => errors.length > 0)
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
