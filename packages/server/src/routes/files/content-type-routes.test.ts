import { createHasher } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { uploadRouteHandlers } from '../uploads/upload-route-handlers'
import { errorOf, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { fileRouteHandlers } from './file-route-handlers'
import { SMALL_FILE_BYTES } from './file-read'

let kit: TestApp
let root: ReturnType<TestApp['as']>

beforeEach(async () => {
  kit = await startTestApp((deps) => [...uploadRouteHandlers(deps), ...fileRouteHandlers(deps)])
  root = kit.as(kit.rootToken)
})
afterEach(() => kit.close())

/** Content types that cannot be sent back as a header, or should not be. */
const BAD_CONTENT_TYPES = [
  'text/plain; name=\u0100',
  'text/\u{1f600}',
  'text/plain\n',
  'a/' + 'b'.repeat(300),
]

async function commitWith(contentType: string): Promise<Response> {
  const bytes = new TextEncoder().encode('hello')
  const hash = Buffer.from((await createHasher('sha256')).hashDomain('chunk', bytes)).toString(
    'hex',
  )
  const sent = await root(`/uploads/chunks/${hash}`, { method: 'PUT', body: bytes })
  expect(sent.status).toBeLessThan(300)
  return root('/uploads/commit', {
    method: 'POST',
    json: { path: '/u/a.txt', chunks: [{ hash, size: bytes.length }], content_type: contentType },
  })
}

describe('content types that are not header values', () => {
  it('are refused by /uploads/commit with 400, and nothing is stored', async () => {
    for (const contentType of BAD_CONTENT_TYPES) {
      const error = await errorOf(await commitWith(contentType), 400)
      expect(error.code).toBe('VALIDATION_FAILED')
      expect(error.details?.[0]?.path).toBe('body.content_type')
    }
    await expect(kit.db.stat('/u/a.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('are refused as the Content-Type of a PUT with 400', async () => {
    // Latin-1 and control characters are what a Headers object lets through.
    for (const contentType of [
      'text/plain; name=\u00e9',
      'text/\u0001plain',
      'a/' + 'b'.repeat(300),
    ]) {
      const res = await root('/files/p.txt', {
        method: 'PUT',
        body: 'x',
        headers: { 'content-type': contentType },
      })
      const error = await errorOf(res, 400)
      expect(error.code).toBe('VALIDATION_FAILED')
      expect(error.details).toEqual([
        { path: 'headers.content-type', message: expect.stringContaining('visible ASCII') },
      ])
    }
    await expect(kit.db.stat('/p.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('still accept ordinary media types with parameters', async () => {
    const committed = await commitWith('text/plain; charset=utf-8')
    expect(committed.status, await committed.clone().text()).toBe(201)
    const put = await root('/files/p.json', {
      method: 'PUT',
      body: '{}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    expect(put.status, await put.clone().text()).toBe(201)
    const read = await root('/files/p.json')
    expect(read.headers.get('content-type')).toBe('application/json; charset=utf-8')
  })

  it('stored before the rule, are served as application/octet-stream instead of failing reads', async () => {
    const big = new Uint8Array(SMALL_FILE_BYTES + 1).fill(7)
    await kit.db.writeFile('/old/small.txt', 'hello', { contentType: 'text/plain; name=\u0100' })
    await kit.db.writeFile('/old/big.bin', big, { contentType: 'application/\u{1f600}' })
    for (const path of ['/old/small.txt', '/old/big.bin']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await root(`/files${path}`, { method })
        expect(res.status, `${method} ${path}`).toBe(200)
        expect(res.headers.get('content-type')).toBe('application/octet-stream')
        await res.arrayBuffer()
      }
      const ranged = await root(`/files${path}`, { headers: { range: 'bytes=0-1' } })
      expect(ranged.status).toBe(206)
      expect(ranged.headers.get('content-type')).toBe('application/octet-stream')
      await ranged.arrayBuffer()
    }
    expect(await (await root('/files/old/small.txt')).text()).toBe('hello')
  })
})

describe('the content type a PUT stores and a GET serves', () => {
  it('comes from the name, then the bytes, and a tool default does not override the name', async () => {
    const cases: [string, string | undefined, string, string][] = [
      ['/docs/README.md', undefined, '# title\n', 'text/markdown'],
      ['/data/a.json', 'application/x-www-form-urlencoded', '{"a":1}', 'application/json'],
      ['/data/b.json', 'application/octet-stream', '{"b":2}', 'application/json'],
      ['/build/Makefile', undefined, 'all:\n', 'text/plain; charset=utf-8'],
      ['/docs/custom.md', 'text/x-custom', '# x', 'text/x-custom'],
    ]
    for (const [path, declared, body, expected] of cases) {
      const put = await root(`/files${path}`, {
        method: 'PUT',
        body,
        headers: declared === undefined ? {} : { 'content-type': declared },
      })
      expect(put.status, path).toBe(201)
      const got = await root(`/files${path}`)
      expect(got.headers.get('content-type'), path).toBe(expected)
      expect(await got.text()).toBe(body)
    }
  })
})
