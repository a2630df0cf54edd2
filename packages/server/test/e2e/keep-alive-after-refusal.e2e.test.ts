import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

const MIB = 1024 * 1024
/** Rounds of each case: the black-box suite saw resets under concurrency, so rounds run in parallel. */
const ROUNDS = 12
const PARALLEL = 4

let server: ServerProcess
let auth: Record<string, string>
let corrupt: Uint8Array<ArrayBuffer>
const body = new Uint8Array(randomBytes(8 * MIB))

beforeAll(async () => {
  server = await startServerProcess(['--dev'])
  const { token } = await login(server.url, server.rootApiKey as string)
  auth = { authorization: `Bearer ${token}` }
  expect((await put('/files/exists.txt', new TextEncoder().encode('x'))).status).toBe(201)
  expect((await put('/files/big.bin', body)).status).toBe(201)
  const exported = await fetch(`${server.url}/versions/export`, { method: 'POST', headers: auth })
  corrupt = new Uint8Array(await exported.arrayBuffer())
  expect(corrupt.length).toBeGreaterThan(8 * MIB)
  corrupt[2] = (corrupt[2] as number) ^ 0xff // a flipped header byte
}, 60_000)
afterAll(async () => {
  await server?.dispose()
})

function put(path: string, bytes: Uint8Array, headers: Record<string, string> = auth) {
  return fetch(server.url + path, {
    method: 'PUT',
    headers,
    body: bytes as Uint8Array<ArrayBuffer>,
  })
}

/** Requests refused before their body is read, each with the status it must get. */
const refusals: [string, number, () => Promise<Response>][] = [
  [
    'an import with a flipped header byte',
    400,
    () =>
      fetch(`${server.url}/versions/import`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body: corrupt,
      }),
  ],
  [
    'an import past 10 MiB',
    413,
    () =>
      fetch(`${server.url}/versions/import`, {
        method: 'POST',
        headers: auth,
        body: new Uint8Array(11 * MIB),
      }),
  ],
  ['a PUT without a credential', 401, () => put('/files/x.bin', body, {})],
  [
    'a PUT with If-None-Match: * over a file',
    412,
    () => put('/files/exists.txt', body, { ...auth, 'if-none-match': '*' }),
  ],
  ['a chunk upload past its limit', 413, () => put(`/uploads/chunks/${'0'.repeat(64)}`, body)],
  [
    'a chunk upload without a credential',
    401,
    () => put(`/uploads/chunks/${'0'.repeat(64)}`, body, {}),
  ],
]

describe('pooled keep-alive connections after a request refused part-way (built server, undici fetch)', () => {
  for (const [name, status, refuse] of refusals) {
    it(`keeps every following request working after ${name}`, async () => {
      const failures: string[] = []
      const round = async () => {
        const refused = await refuse()
        expect(refused.status).toBe(status)
        expect(refused.headers.get('content-type')).toMatch(/^application\/json/)
        await refused.json()
        // Several requests at once, so they take the pooled connections, the refused one included.
        await Promise.all(
          Array.from({ length: 5 }, async () => {
            try {
              const res = await fetch(`${server.url}/files/big.bin?stat=true`, { headers: auth })
              expect(res.status).toBe(200)
              await res.json()
            } catch (err) {
              failures.push(String((err as { cause?: { code?: string } }).cause?.code ?? err))
            }
          }),
        )
      }
      for (let i = 0; i < ROUNDS; i++) await Promise.all(Array.from({ length: PARALLEL }, round))
      expect(failures).toEqual([])
    }, 120_000)
  }
})
