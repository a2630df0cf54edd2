import { createClient } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import { isSessionsAppError, SESSIONS_APP_ROUTES } from '../src'
import type { Session, SessionEvent } from '../src'
import { collectionLayout } from '../src/collection-layout'
import { createSessionStore } from '../src/session-store'
import { eventually } from './app-harness'
import { dispatchedMeta, meta, nextEvent, submit, useLiveSvcdb } from './e2e-fixture'
import { openSse } from './sse-reader'

const fx = useLiveSvcdb()

describe('the dispatcher', () => {
  it('leaves a session whose dispatch fails undispatched, and a later start catches up', async () => {
    let attempts = 0
    const failing = await fx.startApp({
      dispatch: () => {
        attempts++
        throw new Error('no worker free')
      },
    })
    const stream = await openSse(`${failing.url}${SESSIONS_APP_ROUTES.sessionEvents}`)
    await submit(failing, { id: 'fails-1' })
    expect(await nextEvent(stream)).toMatchObject({ kind: 'created', sessionID: 'fails-1' })
    const error = await eventually(async () => failing.errors[0])
    expect(isSessionsAppError(error, 'DISPATCH_FAILED')).toBe(true)
    expect((error as Error).message).toContain('no worker free')
    expect(attempts).toBe(1)
    expect(await meta(failing, 'fails-1')).toMatchObject({ status: 'created', dispatch: null })
    // A later session goes through the same loop: its created event arrives, no dispatched
    // event for the first came in between.
    await submit(failing, { id: 'fails-2' })
    expect(await nextEvent(stream)).toMatchObject({ kind: 'created', sessionID: 'fails-2' })
    stream.close()
    await failing.close()

    // Submitted while no app runs: written straight into the collection, as documented.
    const offline: Session = { id: 'offline-1', title: null, payload: {}, created_at: 1 }
    await fx.svcdb.root.files.write('/sessions/offline-1.json', JSON.stringify(offline), {
      ifNoneMatch: '*',
    })

    const seen: string[] = []
    const app = await fx.startApp({ dispatch: (session) => void seen.push(session.id) })
    for (const id of ['fails-1', 'fails-2', 'offline-1']) await dispatchedMeta(app, id)
    expect(seen.sort()).toEqual(['fails-1', 'fails-2', 'offline-1'])
    expect(app.errors).toEqual([])
  })

  it('retries failed dispatches on its periodic sweep', async () => {
    let fail = true
    const app = await fx.startApp({
      sweepIntervalMs: 100,
      dispatch: () => {
        if (fail) throw new Error('not yet')
      },
    })
    await submit(app, { id: 'sweep-1' })
    await eventually(async () => app.errors[0])
    fail = false
    await dispatchedMeta(app, 'sweep-1')
  })

  it('dispatches sessions submitted through another instance, and every instance streams them', async () => {
    const calls: string[] = []
    const a = await fx.startApp({ dispatch: (session) => void calls.push(`a:${session.id}`) })
    const b = await fx.startApp({ dispatch: (session) => void calls.push(`b:${session.id}`) })
    const streamA = await fx.sessionStream(a)
    const streamB = await fx.sessionStream(b)
    await submit(b, { id: 'multi-1' })
    await submit(b, { id: 'multi-2' })
    for (const stream of [streamA, streamB]) {
      const events = await stream.take(4)
      const forSession = (id: string) =>
        events.map((e) => JSON.parse(e.data) as SessionEvent).filter((e) => e.sessionID === id)
      // Exactly one dispatched each, however many instances dispatched: the record is
      // created once.
      expect(forSession('multi-1').map((e) => e.kind)).toEqual(['created', 'dispatched'])
      expect(forSession('multi-2').map((e) => e.kind)).toEqual(['created', 'dispatched'])
    }
    expect(calls.some((call) => call.endsWith(':multi-1'))).toBe(true)
  })

  it('writes a dispatch record once: a second one is refused quietly, even without update rights', async () => {
    const store = createSessionStore(
      createClient({ baseUrl: fx.svcdb.url, apiKey: fx.svcdb.appKey }),
      collectionLayout('/sessions'),
    )
    const record = { session_id: 'once-1', dispatched_at: 3, result: 'first' }
    expect(await store.markDispatched(record)).toBe(true)
    expect(await store.markDispatched({ ...record, result: 'second' })).toBe(false)
    expect(await store.readDispatch('once-1')).toEqual(record)
  })

  it('picks up sessions written while svcdb restarted under it', async () => {
    const app = await fx.startApp()
    await fx.svcdb.restart()
    const session: Session = { id: 'restart-1', title: null, payload: {}, created_at: 2 }
    await fx.svcdb.root.files.write('/sessions/restart-1.json', JSON.stringify(session), {
      ifNoneMatch: '*',
    })
    await dispatchedMeta(app, 'restart-1')
    await submit(app, { id: 'restart-2' })
    await dispatchedMeta(app, 'restart-2')
  })
})
