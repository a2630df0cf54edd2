import { EventSource } from 'eventsource'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSIONS_APP_ROUTES } from '../src'
import { startApp } from './app-harness'
import type { RunningApp } from './app-harness'
import { useLiveSvcdb } from './e2e-fixture'
import { openSse } from './sse-reader'

const fx = useLiveSvcdb()
let app: RunningApp

beforeAll(async () => {
  app = await startApp(fx.svcdb)
})
afterAll(async () => {
  await app?.close()
})

const channelUrl = (name: string) =>
  `${app.url}${SESSIONS_APP_ROUTES.channelEvents}?name=${encodeURIComponent(name)}`

const channel = async (name: string) => {
  const reader = await openSse(channelUrl(name))
  fx.defer(() => reader.close())
  expect(reader.response.status).toBe(200)
  return reader
}

const send = async (name: string, event: unknown) => {
  const response = await app.post(SESSIONS_APP_ROUTES.channelSend, { name, event })
  expect(response.status).toBe(202)
  return (await response.json()) as { id: string; channel: string; delivered: number }
}

describe('channels', () => {
  it('delivers an event only to the streams of its channel', async () => {
    const a1 = await channel('room-a')
    const a2 = await channel('room-a')
    const b = await channel('room-b')

    expect(await send('room-a', { text: 'for a' })).toEqual({
      id: expect.any(String),
      channel: 'room-a',
      delivered: 2,
    })
    expect(await send('room-b', { text: 'for b' })).toMatchObject({ delivered: 1 })
    await send('room-a', ['second', 'for a'])

    for (const reader of [a1, a2]) {
      const events = await reader.take(2)
      expect(events.map((e) => JSON.parse(e.data) as unknown)).toEqual([
        { text: 'for a' },
        ['second', 'for a'],
      ])
      expect(events.every((e) => e.event === 'message' && e.id !== '')).toBe(true)
    }
    // Sent after a's events: b's first event is its own, so none of a's reached it.
    expect(JSON.parse((await b.next()).data)).toEqual({ text: 'for b' })
  })

  it('works with the eventsource client, and with any JSON value, null and names with spaces', async () => {
    const source = new EventSource(channelUrl('lobby / ünïcode'))
    fx.defer(() => source.close())
    const received: unknown[] = []
    const three = new Promise<void>((resolve, reject) => {
      source.onmessage = (event: MessageEvent<string>) => {
        received.push(JSON.parse(event.data))
        if (received.length === 3) resolve()
      }
      source.onerror = (event) => reject(new Error(`stream failed: ${String(event.message)}`))
    })
    await new Promise<void>((resolve) => (source.onopen = () => resolve()))
    await send('lobby / ünïcode', null)
    await send('lobby / ünïcode', 'multi\nline')
    await send('lobby / ünïcode', 42)
    await three
    expect(received).toEqual([null, 'multi\nline', 42])
  })

  it('accepts an event nobody listens to', async () => {
    expect(await send('empty-room', { text: 'anyone?' })).toMatchObject({ delivered: 0 })
  })

  it('refuses a missing or invalid channel name and a malformed send with 400', async () => {
    const expectError = async (response: Response, code: string, detailPath?: string) => {
      expect(response.status).toBe(400)
      const body = (await response.json()) as {
        error: { code: string; message: string; details?: { path: string }[] }
      }
      expect(body.error.code).toBe(code)
      if (detailPath !== undefined) expect(body.error.details?.[0]?.path).toBe(detailPath)
    }
    const events = SESSIONS_APP_ROUTES.channelEvents
    await expectError(await app.get(events), 'VALIDATION_FAILED', 'query.name')
    await expectError(await app.get(`${events}?name=`), 'VALIDATION_FAILED', 'query.name')
    await expectError(await app.get(`${events}?name=a%0Ab`), 'VALIDATION_FAILED', 'query.name')
    await expectError(
      await app.get(`${events}?name=${'x'.repeat(257)}`),
      'VALIDATION_FAILED',
      'query.name',
    )
    const sendRoute = SESSIONS_APP_ROUTES.channelSend
    await expectError(await app.post(sendRoute, { name: 'a' }), 'VALIDATION_FAILED', 'body.event')
    await expectError(await app.post(sendRoute, { event: 1 }), 'VALIDATION_FAILED', 'body.name')
    await expectError(
      await app.post(sendRoute, { name: 'a', event: 1, extra: true }),
      'VALIDATION_FAILED',
      'body.extra',
    )
    await expectError(await app.post(sendRoute, 'not json'), 'BAD_REQUEST')
  })
})
