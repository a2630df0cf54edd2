import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ClientError, createClient, isClientError } from '../src'
import type { Client } from '../src'
import type * as AbortModule from '../src/http/abort'
import { closedPort } from './closed-port'
import { startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

/**
 * The transport's backoff between attempts, passed through unless `hold` is set: it then tells
 * `entered` and lasts until the call's signal fires, so a call ending then ended on its signal.
 */
const backoff = vi.hoisted(() => ({ hold: false, entered: () => {} }))
vi.mock('../src/http/abort', async (importOriginal) => {
  const actual = await importOriginal<typeof AbortModule>()
  const sleep: typeof actual.sleep = (ms, signal) => {
    if (!backoff.hold) return actual.sleep(ms, signal)
    backoff.entered()
    return actual.sleep(2 ** 31 - 1, signal)
  }
  return { ...actual, sleep }
})

let server: LiveServer
let client: Client
let deadUrl: string

beforeAll(async () => {
  server = await startLiveServer()
  client = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
  deadUrl = `http://127.0.0.1:${await closedPort()}`
  await client.files.write('/big.bin', new Uint8Array(4 * 1024 * 1024))
  for (let i = 0; i < 20; i++) await client.files.write(`/dir/f${i}`, `${i}`)
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

/** The error `promise` rejects with (the test fails if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  const outcome = await promise.then(
    () => ({ resolved: true as const }),
    (err: unknown) => ({ resolved: false as const, err }),
  )
  expect(outcome.resolved).toBe(false)
  return outcome.resolved ? undefined : outcome.err
}

/** A `fetch` that counts its calls and passes them on to the real one. */
function countingFetch() {
  const counter = {
    calls: 0,
    fetch: ((input, init) => {
      counter.calls++
      return fetch(input, init)
    }) as typeof fetch,
  }
  return counter
}

describe('ClientError', () => {
  it('carries the status and code of a 404', async () => {
    const err = await rejection(client.files.readText('/no/such/file.txt'))
    expect(err).toBeInstanceOf(ClientError)
    expect(err).toMatchObject({ name: 'ClientError', status: 404, code: 'NOT_FOUND' })
    expect((err as Error).message).toContain('/no/such/file.txt')
  })

  it('carries the issues of a validation failure in details', async () => {
    const err = await rejection(client.users.create({ username: '' }))
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' })
    expect((err as ClientError).details).toEqual([
      { path: 'body.username', message: 'must not be empty' },
    ])
  })

  it('narrows with isClientError, by code or not at all', async () => {
    const err: unknown = await rejection(client.versions.snapshots.delete('missing'))
    expect(isClientError(err)).toBe(true)
    expect(isClientError(err, 'NOT_FOUND')).toBe(true)
    expect(isClientError(err, 'CONFLICT')).toBe(false)
    if (!isClientError(err)) throw new Error('not narrowed')
    // Typed access after narrowing, without a cast.
    const { status, code, details } = err
    expect([status, code, details]).toEqual([404, 'NOT_FOUND', undefined])
    expect(isClientError(new Error('plain'))).toBe(false)
    expect(isClientError({ name: 'ClientError', code: 'NOT_FOUND' }, 'NOT_FOUND')).toBe(true)
  })
})

describe('network failures', () => {
  it('retries an idempotent GET `retries` times, then fails with NETWORK_ERROR, status 0', async () => {
    for (const retries of [0, 2]) {
      const counter = countingFetch()
      const dead = createClient({ baseUrl: deadUrl, fetch: counter.fetch, retries })
      const err = await rejection(dead.system.health())
      expect(err).toMatchObject({ name: 'ClientError', code: 'NETWORK_ERROR', status: 0 })
      expect((err as Error).cause).toBeDefined()
      expect(counter.calls).toBe(retries + 1)
    }
  })

  it('never repeats a POST', async () => {
    const counter = countingFetch()
    const dead = createClient({ baseUrl: deadUrl, token: 't', fetch: counter.fetch, retries: 3 })
    const err = await rejection(dead.versions.snapshots.create('s'))
    expect(err).toMatchObject({ code: 'NETWORK_ERROR', status: 0 })
    expect(counter.calls).toBe(1)
  })

  it('throws at once for options that cannot work', () => {
    expect(() => createClient({ baseUrl: 'not a url' })).toThrow(TypeError)
    expect(() => createClient({ baseUrl: 'ftp://example.com' })).toThrow(TypeError)
    expect(() => createClient({ baseUrl: server.url, retries: -1 })).toThrow(RangeError)
    expect(() => createClient({ baseUrl: server.url, retries: 1.5 })).toThrow(RangeError)
  })
})

describe('aborted calls', () => {
  it('fail with ABORTED when the signal fired before the call', async () => {
    const counter = countingFetch()
    const c = createClient({ baseUrl: server.url, token: 't', fetch: counter.fetch })
    const err = await rejection(c.files.readText('/big.bin', { signal: AbortSignal.abort() }))
    expect(err).toMatchObject({ name: 'ClientError', code: 'ABORTED', status: 0 })
    expect(counter.calls).toBe(0)
  })

  it('fail with ABORTED, not NETWORK_ERROR, when aborted while retrying', async () => {
    const counter = countingFetch()
    const controller = new AbortController()
    const dead = createClient({ baseUrl: deadUrl, fetch: counter.fetch, retries: 5 })
    const inBackoff = new Promise<void>((resolve) => (backoff.entered = resolve))
    backoff.hold = true
    try {
      const call = rejection(dead.system.health({ signal: controller.signal }))
      await inBackoff
      expect(counter.calls).toBe(1)
      controller.abort()
      // The backoff never runs out: only the abort can end the call.
      expect(await call).toMatchObject({ name: 'ClientError', code: 'ABORTED', status: 0 })
      expect(counter.calls).toBe(1)
    } finally {
      backoff.hold = false
    }
  })

  it('fail with ABORTED when aborted while the answer’s body arrives', async () => {
    let controller = new AbortController()
    // Fires the signal the moment the headers are in, before any body is read.
    const abortAfterHeaders: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (!new URL(String(input)).pathname.startsWith('/auth/')) controller.abort()
      return response
    }
    const c = createClient({
      baseUrl: server.url,
      apiKey: server.rootApiKey,
      fetch: abortAfterHeaders,
    })
    const calls: [string, (signal: AbortSignal) => Promise<unknown>][] = [
      ['files.readBytes', (signal) => c.files.readBytes('/big.bin', { signal })],
      ['files.stat', (signal) => c.files.stat('/dir', { signal })],
      ['files.listPage', (signal) => c.files.listPage('/dir', { signal })],
      ['system.metrics', (signal) => c.system.metrics({ signal })],
      ['system.stats', (signal) => c.system.stats({ signal })],
    ]
    for (const [name, call] of calls) {
      controller = new AbortController()
      const err = await rejection(call(controller.signal))
      expect(err, name).toMatchObject({ name: 'ClientError', code: 'ABORTED' })
    }
  })
})
