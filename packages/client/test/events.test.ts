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

/** A subscription collecting envelopes in the background until `stop()`. */
function collect(options: Omit<SubscribeOptions, 'signal'>) {
  const controller = new AbortController()
  const events: EventEnvelope[] = []
  const done = (async () => {
    for await (const event of client.events.subscribe({ ...options, signal: controller.signal }))
      events.push(event)
  })()
  return {
    events,
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

/**
 * Writes probe files under `dir` until one shows up in `events`: a subscription only sees what
 * happens after the server opened it, and nothing on the wire says when that was.
 */
async function probeUntilSeen(
  events: () => readonly EventEnvelope[],
  dir: string,
): Promise<string> {
  for (let i = 0; i < 200; i++) {
    await client.files.write(`${dir}/probe-${i}`, 'probe')
    await new Promise((resolve) => setTimeout(resolve, 25))
    const seen = createdPaths(events()).find((p) => p.startsWith(`${dir}/probe-`))
    if (seen !== undefined) return seen
  }
  throw new Error('the subscription saw no probe')
}

/** Waits until `check` holds, polling (fails the test after ~5 s). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25))
  expect(check()).toBe(true)
}

describe('events.subscribe', () => {
  it('yields envelopes for writes under the prefix and ends quietly on abort', async () => {
    const sub = collect({ events: ['entries_created'], pathPrefix: '/ev/' })
    await probeUntilSeen(() => sub.events, '/ev')
    const written = await client.files.write('/ev/a.txt', 'a')
    await client.files.write('/elsewhere/x.txt', 'x')
    await client.files.delete('/ev/a.txt')
    await client.files.write('/ev/b.txt', 'b')
    await until(() => createdPaths(sub.events).includes('/ev/b.txt'))

    const paths = createdPaths(sub.events).filter((p) => !p.includes('/probe-'))
    expect(paths).toEqual(['/ev/a.txt', '/ev/b.txt'])
    expect(sub.events.every((e) => e.event_type === 'entries_created')).toBe(true)
    const a = sub.events.find((e) => createdPaths([e]).includes('/ev/a.txt'))
    expect(a).toMatchObject({
      event_type: 'entries_created',
      payload: { version: written.version },
    })
    expect(a?.event_id).toMatch(/^[0-9a-z]+-[1-9][0-9]*$/)

    await expect(sub.stop()).resolves.toBeUndefined()
  })

  it('resumes after a given event id, replaying what it missed', async () => {
    const first = collect({ events: ['entries_created'], pathPrefix: '/resume/' })
    await probeUntilSeen(() => first.events, '/resume')
    await first.stop()
    const lastEventId = first.events.at(-1)?.event_id as string

    await client.files.write('/resume/missed-1', '1')
    await client.files.write('/resume/missed-2', '2')
    const second = collect({ events: ['entries_created'], pathPrefix: '/resume/', lastEventId })
    await until(() => createdPaths(second.events).includes('/resume/missed-2'))
    await second.stop()
    const paths = createdPaths(second.events)
    expect(paths.slice(paths.indexOf('/resume/missed-1'))).toEqual([
      '/resume/missed-1',
      '/resume/missed-2',
    ])
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
  it('reconnects by itself after a restart and first reports the events it lost', async () => {
    const sub = collect({
      events: ['entries_created'],
      pathPrefix: '/restart/',
      minDelayMs: 20,
      maxDelayMs: 200,
    })
    await probeUntilSeen(() => sub.events, '/restart/before')
    await server.restart()
    const seen = await probeUntilSeen(() => sub.events, '/restart/after')

    // The new process has a new boot id, so it cannot replay after the old one's last id: the
    // stream says so once, then goes on live.
    const boot = (event: EventEnvelope | undefined) => event?.event_id.split('-')[0]
    const lost = sub.events.findIndex((e) => e.event_type === 'events_lost')
    expect(lost).toBeGreaterThan(0)
    expect(sub.events[lost]).toMatchObject({
      payload: { last_event_id: sub.events[lost - 1]?.event_id, reason: 'unknown' },
    })
    expect(sub.events.filter((e) => e.event_type === 'events_lost')).toHaveLength(1)
    const oldBoot = boot(sub.events[0])
    expect(sub.events.slice(0, lost).every((e) => boot(e) === oldBoot)).toBe(true)
    expect(sub.events.slice(lost).every((e) => boot(e) !== oldBoot)).toBe(true)
    expect(createdPaths(sub.events.slice(lost))).toContain(seen)

    await expect(sub.stop()).resolves.toBeUndefined()
  })
})
