import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { sessionEventSchema, SESSIONS_APP_ROUTES } from '../src'
import type { Session, SessionEvent, SessionMeta, SessionsAppOptions } from '../src'
import { eventually, startApp } from './app-harness'
import type { RunningApp } from './app-harness'
import { startLiveSvcdb } from './live-svcdb'
import type { LiveSvcdb } from './live-svcdb'
import { openSse } from './sse-reader'
import type { SseReader } from './sse-reader'

/** What {@link useLiveSvcdb} gives a test file. */
export interface E2eFixture {
  /** The file's svcdb server (set once `beforeAll` ran). */
  readonly svcdb: LiveSvcdb
  /** Runs `cleanup` after the current test. */
  defer(cleanup: () => unknown): void
  /** Starts an app, closed after the current test. */
  startApp(options?: Partial<Omit<SessionsAppOptions, 'client'>>): Promise<RunningApp>
  /** Opens an app's session stream, closed after the current test. */
  sessionStream(app: RunningApp, headers?: Record<string, string>): Promise<SseReader>
}

/**
 * Starts one real svcdb server for the test file (stopped after it) and cleans up what each
 * test opened.
 */
export function useLiveSvcdb(): E2eFixture {
  let svcdb: LiveSvcdb | undefined
  const cleanups: (() => unknown)[] = []
  beforeAll(async () => {
    svcdb = await startLiveSvcdb()
  }, 30_000)
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  afterAll(async () => {
    await svcdb?.dispose()
  })
  const fixture: E2eFixture = {
    get svcdb() {
      if (svcdb === undefined) throw new Error('svcdb is not started yet')
      return svcdb
    },
    defer: (cleanup) => void cleanups.push(cleanup),
    async startApp(options = {}) {
      const running = await startApp(fixture.svcdb, options)
      cleanups.push(() => running.close())
      return running
    },
    async sessionStream(app, headers = {}) {
      const reader = await openSse(`${app.url}${SESSIONS_APP_ROUTES.sessionEvents}`, headers)
      cleanups.push(() => reader.close())
      return reader
    },
  }
  return fixture
}

/** The next session event, checked against the envelope schema, with its SSE id. */
export async function nextEvent(reader: SseReader): Promise<SessionEvent & { id: string }> {
  const event = await reader.next()
  expect(event.event).toBe('message')
  return { ...v.parse(sessionEventSchema, JSON.parse(event.data)), id: event.id }
}

/** `GET /api/v1/sessions/{id}/meta`, expecting 200. */
export async function meta(app: RunningApp, id: string): Promise<SessionMeta> {
  const response = await app.get(`/api/v1/sessions/${id}/meta`)
  expect(response.status).toBe(200)
  return (await response.json()) as SessionMeta
}

/** `POST /api/v1/sessions`, expecting 201. */
export async function submit(app: RunningApp, body: unknown = {}): Promise<Session> {
  const response = await app.post(SESSIONS_APP_ROUTES.sessionSubmit, body)
  expect(response.status).toBe(201)
  return (await response.json()) as Session
}

/** Waits until the session's meta says it is dispatched. */
export function dispatchedMeta(app: RunningApp, id: string): Promise<SessionMeta> {
  return eventually(async () => {
    const current = await meta(app, id)
    return current.status === 'dispatched' ? current : undefined
  })
}

/** The JSON body of an error answer. */
export interface ErrorAnswer {
  error: { code: string; message: string; details?: { path: string; message: string }[] }
}

/** Checks an error answer: status, JSON body, code, and where the first issue is. */
export async function expectError(
  response: Response,
  status: number,
  code: string,
  detailPath?: string,
): Promise<ErrorAnswer> {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = (await response.json()) as ErrorAnswer
  expect(body.error.code).toBe(code)
  expect(body.error.message).not.toBe('')
  if (detailPath !== undefined) expect(body.error.details?.[0]?.path).toBe(detailPath)
  return body
}
