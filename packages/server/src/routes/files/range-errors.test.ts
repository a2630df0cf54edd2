import { errorBodySchema } from '@svcdb/contract'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorOf, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { fileRouteHandlers } from './file-route-handlers'
import { SMALL_FILE_BYTES } from './file-read'

let kit: TestApp
let root: ReturnType<TestApp['as']>

beforeEach(async () => {
  kit = await startTestApp((deps) => fileRouteHandlers(deps))
  root = kit.as(kit.rootToken)
})
afterEach(() => kit.close())

describe('unsatisfiable ranges', () => {
  it('answer 416 RANGE_NOT_SATISFIABLE as JSON, with Content-Range: bytes */SIZE', async () => {
    await kit.db.writeFile('/small.txt', 'hello world', { contentType: 'text/plain' })
    await kit.db.writeFile('/big.bin', new Uint8Array(SMALL_FILE_BYTES + 1))
    await kit.db.writeFile('/empty.txt', '')
    const cases: [string, string, number][] = [
      ['/small.txt', 'bytes=50-60', 11],
      ['/small.txt', 'bytes=11-', 11],
      ['/small.txt', 'bytes=-0', 11],
      ['/big.bin', `bytes=${SMALL_FILE_BYTES + 1}-`, SMALL_FILE_BYTES + 1],
      ['/empty.txt', 'bytes=0-', 0],
    ]
    for (const [path, range, size] of cases) {
      const res = await root(`/files${path}`, { headers: { range } })
      expect(res.headers.get('content-type'), range).toMatch(/^application\/json/)
      expect(res.headers.get('content-range'), range).toBe(`bytes */${size}`)
      const error = await errorOf(res, 416)
      expect(error.code).toBe('RANGE_NOT_SATISFIABLE')
      expect(error.message).toContain(`${size} bytes`)
    }
  })

  it('carries no body on HEAD, and 304 stays bodiless', async () => {
    await kit.db.writeFile('/small.txt', 'hello world')
    const head = await root('/files/small.txt', { method: 'HEAD', headers: { range: 'bytes=99-' } })
    expect(head.status).toBe(416)
    expect(head.headers.get('content-range')).toBe('bytes */11')
    expect(await head.text()).toBe('')
    const etag = (await root('/files/small.txt')).headers.get('etag') as string
    const notModified = await root('/files/small.txt', { headers: { 'if-none-match': etag } })
    expect(notModified.status).toBe(304)
    expect(await notModified.text()).toBe('')
  })

  it('keep every other error of a read JSON', async () => {
    const missing = await root('/files/nope.txt', { headers: { range: 'bytes=0-1' } })
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/)
    expect(v.is(errorBodySchema, await missing.json())).toBe(true)
  })
})
