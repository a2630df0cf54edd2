import { randomBytes } from 'node:crypto'
import { errorBodySchema } from '@svcdb/contract'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { flood, peakRss, resetPeakRss } from './raw-http'
import type { RawAnswer } from './raw-http'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

const MIB = 1024 * 1024
/** What each attack tries to send: far past every limit. */
const ATTACK_BYTES = 50 * MIB
/** Most the server's peak memory may grow while refusing it. */
const MAX_GROWTH = 30 * MIB

let server: ServerProcess
let rootToken: string

beforeAll(async () => {
  server = await startServerProcess(['--dev'])
  rootToken = (await login(server.url, server.rootApiKey as string)).token
}, 60_000)
afterAll(async () => {
  await server?.dispose()
})

/** Runs `attack` and returns its answer with how much the server's peak memory grew. */
async function measured(attack: () => Promise<RawAnswer>): Promise<RawAnswer & { growth: number }> {
  // Settle first: the answer to a first request allocates once (code, caches).
  expect((await fetch(`${server.url}/system/health`)).status).toBe(200)
  const before = await peakRssAfterReset()
  const answer = await attack()
  return { ...answer, growth: (await peakRss(server.pid)) - before }
}

async function peakRssAfterReset(): Promise<number> {
  await resetPeakRss(server.pid)
  return peakRss(server.pid)
}

function expectTooLarge(answer: RawAnswer & { growth: number }): void {
  expect(answer.status).toBe(413)
  expect(answer.headers['content-type']).toMatch(/^application\/json/)
  const body = v.parse(errorBodySchema, JSON.parse(answer.body))
  expect(body.error.code).toBe('PAYLOAD_TOO_LARGE')
  expect(answer.sent).toBeLessThan(ATTACK_BYTES)
  expect(answer.growth).toBeLessThan(MAX_GROWTH)
}

async function expectResponsive(): Promise<void> {
  const res = await fetch(`${server.url}/system/health`)
  expect(res.status).toBe(200)
  expect(((await res.json()) as { status: string }).status).toBe('ok')
}

const json = { 'content-type': 'application/json' }
const jsonPrefix = new TextEncoder().encode('{"api_key":"')

describe('request bodies past their limit, over real HTTP', () => {
  it('refuses a chunked JSON body to /auth/token without a credential at 1 MiB, holding none of it', async () => {
    const answer = await measured(() =>
      flood(server.url, {
        method: 'POST',
        path: '/auth/token',
        headers: json,
        prefix: jsonPrefix,
        bodyBytes: ATTACK_BYTES,
        framing: 'chunked',
      }),
    )
    expectTooLarge(answer)
    expect(JSON.parse(answer.body).error.message).toContain(String(MIB))
    await expectResponsive()
  })

  it('refuses a chunked JSON body on an authenticated route the same way', async () => {
    const answer = await measured(() =>
      flood(server.url, {
        method: 'POST',
        path: '/files/query',
        headers: { ...json, authorization: `Bearer ${rootToken}` },
        prefix: new TextEncoder().encode('{"path":"/","where":{"field":"/a","op":"eq","value":"'),
        bodyBytes: ATTACK_BYTES,
        framing: 'chunked',
      }),
    )
    expectTooLarge(answer)
    await expectResponsive()
  })

  it('refuses a declared Content-Length past the limit before reading the body', async () => {
    const answer = await measured(() =>
      flood(server.url, {
        method: 'POST',
        path: '/auth/token',
        headers: json,
        bodyBytes: ATTACK_BYTES,
        framing: ATTACK_BYTES,
      }),
    )
    expectTooLarge(answer)
    await expectResponsive()
  })

  it('takes no more than a Content-Length lying low declares: the rest is never read as body', async () => {
    // HTTP/1.1 frames the body by Content-Length: the bytes past it are a malformed next
    // request, which Node's HTTP parser refuses with a bare 400 before closing the connection
    // at once; a client still sending may see only the close.
    const answer = await measured(() =>
      flood(server.url, {
        method: 'POST',
        path: '/auth/token',
        headers: json,
        prefix: jsonPrefix,
        bodyBytes: ATTACK_BYTES,
        framing: 100,
      }),
    )
    expect([400, undefined]).toContain(answer.status)
    expect(answer.sent).toBeLessThan(ATTACK_BYTES)
    expect(answer.growth).toBeLessThan(MAX_GROWTH)
    await expectResponsive()
  })

  it('answers 413 JSON to an import past 10 MiB sent chunked', async () => {
    // A real archive (a random 11 MiB file cannot shrink), so the import reads on until the limit.
    const root = client(server.url, rootToken)
    expect((await root.put('/files/big.bin', new Uint8Array(randomBytes(11 * MIB)))).status).toBe(
      201,
    )
    const exported = new Uint8Array(await (await root.post('/versions/export')).arrayBuffer())
    expect(exported.length).toBeGreaterThan(10 * MIB)
    const answer = await measured(() =>
      flood(server.url, {
        method: 'POST',
        path: '/versions/import',
        headers: {
          authorization: `Bearer ${rootToken}`,
          'content-type': 'application/octet-stream',
        },
        prefix: exported,
        bodyBytes: exported.length,
        framing: 'chunked',
      }),
    )
    expect(answer.status).toBe(413)
    expect(v.parse(errorBodySchema, JSON.parse(answer.body)).error.code).toBe('PAYLOAD_TOO_LARGE')
    await expectResponsive()
  })

  it('answers 413 JSON to a chunk upload past the largest chunk', async () => {
    const answer = await measured(() =>
      flood(server.url, {
        method: 'PUT',
        path: `/uploads/chunks/${'0'.repeat(64)}`,
        headers: { authorization: `Bearer ${rootToken}` },
        bodyBytes: ATTACK_BYTES,
        framing: 'chunked',
      }),
    )
    expectTooLarge(answer)
    await expectResponsive()
  })
})
