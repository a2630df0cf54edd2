import { EventSource } from 'eventsource'
import { describe, expect, it } from 'vitest'
import { SESSIONS_APP_ROUTES } from '../src'
import type { Session } from '../src'
import { eventually } from './app-harness'
import { dispatchedMeta, meta, nextEvent, submit, useLiveSvcdb } from './e2e-fixture'
import { openSse } from './sse-reader'

const fx = useLiveSvcdb()

describe('sessions: submit, stream, meta', () => {
  it('streams created then dispatched for a submitted session, and meta shows the dispatch', async () => {
    const dispatched: Session[] = []
    const app = await fx.startApp({
      dispatch: (session) => {
        dispatched.push(session)
        return { worker: 'w-1' }
      },
    })
    const stream = await fx.sessionStream(app)
    expect(stream.response.status).toBe(200)
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/)

    const response = await app.post(SESSIONS_APP_ROUTES.sessionSubmit, {
      title: 'first',
      payload: { prompt: 'hello' },
    })
    expect(response.status).toBe(201)
    const session = (await response.json()) as Session
    expect(session).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'first',
      payload: { prompt: 'hello' },
      created_at: expect.any(Number),
    })
    expect(response.headers.get('location')).toBe(`/api/v1/sessions/${session.id}/meta`)

    const created = await nextEvent(stream)
    expect(created).toMatchObject({ kind: 'created', sessionID: session.id })
    expect(created.id).toMatch(/^[0-9a-f]{8}-\d+$/)
    expect(await nextEvent(stream)).toMatchObject({ kind: 'dispatched', sessionID: session.id })
    expect(dispatched).toEqual([session])

    expect(await meta(app, session.id)).toEqual({
      ...session,
      status: 'dispatched',
      dispatch: {
        session_id: session.id,
        dispatched_at: expect.any(Number),
        result: { worker: 'w-1' },
      },
    })
  })

  it('stores one immutable file per session and appends the dispatch record beside it', async () => {
    const app = await fx.startApp()
    const session = await submit(app, { id: 'layout-1' })
    await dispatchedMeta(app, session.id)
    expect(JSON.parse(await fx.svcdb.root.files.readText('/sessions/layout-1.json'))).toEqual(
      session,
    )
    expect(
      JSON.parse(await fx.svcdb.root.files.readText('/sessions/layout-1.dispatched.json')),
    ).toMatchObject({ session_id: 'layout-1', result: null })
    const entry = await fx.svcdb.root.files.stat('/sessions/layout-1.json')
    expect(entry.content_type).toBe('application/json')
  })

  it('reports a session not yet dispatched as created, with a null dispatch', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const app = await fx.startApp({ dispatch: () => gate })
    const session = await submit(app, { id: 'waiting-1', title: 'waits' })
    expect(await meta(app, 'waiting-1')).toEqual({ ...session, status: 'created', dispatch: null })
    release()
    await dispatchedMeta(app, 'waiting-1')
  })

  it('works with the eventsource client and resumes after Last-Event-ID', async () => {
    const app = await fx.startApp()
    const source = new EventSource(`${app.url}${SESSIONS_APP_ROUTES.sessionEvents}`)
    fx.defer(() => source.close())
    const received: MessageEvent<string>[] = []
    const two = new Promise<void>((resolve, reject) => {
      source.onmessage = (event) => {
        received.push(event)
        if (received.length === 2) resolve()
      }
      source.onerror = (event) => reject(new Error(`stream failed: ${String(event.message)}`))
    })
    await new Promise<void>((resolve) => (source.onopen = () => resolve()))
    const session = await submit(app, { id: 'es-1' })
    await two
    expect(received.map((e) => JSON.parse(e.data) as unknown)).toEqual([
      { kind: 'created', sessionID: session.id },
      { kind: 'dispatched', sessionID: session.id },
    ])
    const [first, second] = received as [MessageEvent<string>, MessageEvent<string>]

    // A client that saw only the first event gets the second replayed, then live ones.
    const resumed = await fx.sessionStream(app, { 'last-event-id': first.lastEventId })
    const replayed = await nextEvent(resumed)
    expect(replayed).toEqual({ kind: 'dispatched', sessionID: 'es-1', id: second.lastEventId })
    await submit(app, { id: 'es-2' })
    expect(await nextEvent(resumed)).toMatchObject({ kind: 'created', sessionID: 'es-2' })
    expect(await nextEvent(resumed)).toMatchObject({ kind: 'dispatched', sessionID: 'es-2' })

    // An id from another process resumes nothing: live events only.
    const fresh = await fx.sessionStream(app, { 'last-event-id': '00000000-1' })
    await submit(app, { id: 'es-3' })
    expect(await nextEvent(fresh)).toMatchObject({ kind: 'created', sessionID: 'es-3' })
    // Settled before the next test, whose app would otherwise see its events.
    expect(await nextEvent(fresh)).toMatchObject({ kind: 'dispatched', sessionID: 'es-3' })
  })

  it('sends a keepalive comment and ends open streams when the app closes', async () => {
    const app = await fx.startApp({ pingIntervalMs: 50 })
    const sessions = await openSse(`${app.url}${SESSIONS_APP_ROUTES.sessionEvents}`)
    const channel = await openSse(`${app.url}${SESSIONS_APP_ROUTES.channelEvents}?name=x`)
    await eventually(async () => (sessions.comments.includes('ping') ? true : undefined))
    await app.close()
    await sessions.ended
    await channel.ended
  })
})
