import { randomBytes } from 'node:crypto'
import { errorBodySchema } from '@svcdb/contract'
import { createHasher } from '@svcdb/engine'
import type { Database } from '@svcdb/engine'
import { createChunker } from '@svcdb/engine/chunking'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { uploadRouteHandlers } from './upload-route-handlers'
import { startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let kit: TestApp
let db: Database
let app: TestApp['app']
let token: string

beforeEach(async () => {
  kit = await startTestApp(uploadRouteHandlers)
  ;({ db, app, rootToken: token } = kit)
})
afterEach(() => kit.close())

const call = (path: string, init: RequestInit = {}) =>
  app.request(path, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
  })
const json = (body: unknown) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})

/** A client-side upload: cut, ask, send what is missing, commit; returns chunk bytes sent. */
async function upload(path: string, content: Uint8Array): Promise<number> {
  const hasher = await createHasher('sha256')
  const chunker = createChunker()
  const chunks = [...chunker.push(content), ...chunker.end()].map((bytes) => ({
    bytes,
    hash: Buffer.from(hasher.hashDomain('chunk', bytes)).toString('hex'),
  }))
  const { missing } = (await (
    await call('/uploads/check', json({ hashes: chunks.map((c) => c.hash) }))
  ).json()) as { missing: string[] }
  let sent = 0
  for (const chunk of chunks.filter((c) => missing.includes(c.hash))) {
    const res = await call(`/uploads/chunks/${chunk.hash}`, {
      method: 'PUT',
      body: chunk.bytes as Uint8Array<ArrayBuffer>,
    })
    expect(res.status).toBe(201)
    sent += chunk.bytes.length
  }
  const committed = await call(
    '/uploads/commit',
    json({
      path,
      chunks: chunks.map((c) => ({ hash: c.hash, size: c.bytes.length })),
      content_type: 'application/x-test',
    }),
  )
  expect([200, 201]).toContain(committed.status)
  return sent
}

describe('dedup-aware uploads', () => {
  it('sends only the changed chunks the second time', async () => {
    const content = new Uint8Array(randomBytes(3 * 1024 * 1024))
    expect(await upload('/big.bin', content)).toBe(content.length)
    const edited = content.slice()
    edited[1_500_000] = (edited[1_500_000] as number) ^ 0xff
    const sent = await upload('/big-v2.bin', edited)
    expect(sent).toBeGreaterThan(0)
    expect(sent).toBeLessThan(content.length / 5)
    expect(Buffer.from(await db.readFile('/big-v2.bin')).equals(Buffer.from(edited))).toBe(true)
  })

  it('refuses a chunk whose bytes do not match its hash, and a commit of missing chunks', async () => {
    const hash = 'a'.repeat(64)
    const bad = await call(`/uploads/chunks/${hash}`, {
      method: 'PUT',
      body: new Uint8Array([1, 2, 3]),
    })
    expect(bad.status).toBe(400)
    v.parse(errorBodySchema, await bad.json())
    const commit = await call('/uploads/commit', json({ path: '/x', chunks: [{ hash, size: 3 }] }))
    expect(commit.status).toBe(400)
    expect((await call('/uploads/chunks/xyz', { method: 'PUT', body: 'x' })).status).toBe(400)
    expect(
      (await call(`/uploads/chunks/${hash}`, { method: 'PUT', body: new Uint8Array(300 * 1024) }))
        .status,
    ).toBe(413)
  })
})
