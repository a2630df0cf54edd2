import { createHasher } from '@svcdb/engine'
import { createChunker } from '@svcdb/engine/chunking'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { uploadRouteHandlers } from './upload-route-handlers'

let kit: TestApp
let root: ReturnType<TestApp['as']>

beforeEach(async () => {
  kit = await startTestApp((deps) => uploadRouteHandlers(deps))
  root = kit.as(kit.rootToken)
})
afterEach(() => kit.close())

const post = (path: string, json: unknown) => root(path, { method: 'POST', json })

/** Sends `content`'s chunks and returns their references, ready to commit. */
async function sendChunks(content: Uint8Array) {
  const hasher = await createHasher('sha256')
  const chunker = createChunker()
  const chunks = [...chunker.push(content), ...chunker.end()].map((bytes) => ({
    bytes: bytes.slice(),
    hash: Buffer.from(hasher.hashDomain('chunk', bytes)).toString('hex'),
  }))
  for (const chunk of chunks) {
    const res = await root(`/uploads/chunks/${chunk.hash}`, {
      method: 'PUT',
      body: chunk.bytes as Uint8Array<ArrayBuffer>,
    })
    expect([200, 201]).toContain(res.status)
  }
  return chunks.map((c) => ({ hash: c.hash, size: c.bytes.length }))
}

const utf8 = (text: string) => new TextEncoder().encode(text)
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3,
])

describe('content types of committed uploads', () => {
  it('come from the name, then the first bytes, unless the commit names one', async () => {
    const cases: [string, Uint8Array, string | undefined, string][] = [
      ['/docs/README.md', utf8('# hi\n'), undefined, 'text/markdown'],
      ['/data/a.json', utf8('{"a":1}'), undefined, 'application/json'],
      ['/build/Makefile', utf8('all:\n\techo hi\n'), undefined, 'text/plain; charset=utf-8'],
      ['/img/logo', PNG, undefined, 'image/png'],
      ['/docs/forced.md', utf8('# x'), 'application/octet-stream', 'application/octet-stream'],
    ]
    for (const [path, content, declared, expected] of cases) {
      const chunks = await sendChunks(content)
      const res = await post('/uploads/commit', {
        path,
        chunks,
        ...(declared === undefined ? {} : { content_type: declared }),
      })
      expect(res.status, path).toBe(201)
      expect(((await res.json()) as { content_type: string }).content_type, path).toBe(expected)
    }
  })

  it('apply the same rule to every file of a bulk commit', async () => {
    const files = [
      { path: '/bulk/index.html', chunks: await sendChunks(utf8('<h1>hi</h1>')) },
      { path: '/bulk/LICENSE', chunks: await sendChunks(utf8('MIT License\n')) },
      { path: '/bulk/pic', chunks: await sendChunks(PNG) },
      { path: '/bulk/empty.txt', chunks: [] },
    ]
    const res = await post('/uploads/commit-many', { files })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { files: { path: string; content_type: string }[] }
    expect(Object.fromEntries(body.files.map((f) => [f.path, f.content_type]))).toEqual({
      '/bulk/index.html': 'text/html',
      '/bulk/LICENSE': 'text/plain; charset=utf-8',
      '/bulk/pic': 'image/png',
      '/bulk/empty.txt': 'text/plain',
    })
  })
})
