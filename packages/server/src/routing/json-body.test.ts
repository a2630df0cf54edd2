import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileRouteHandlers } from '../routes/files/file-route-handlers'
import { namedVersionRouteHandlers } from '../routes/named-versions/named-version-route-handlers'
import { errorOf, startTestApp } from '../../test/kit'
import type { TestApp } from '../../test/kit'
import { MAX_JSON_BODY_BYTES, MAX_JSON_DEPTH, nestingExceeds } from './json-body'

let kit: TestApp

beforeEach(async () => {
  kit = await startTestApp((deps) => [
    ...namedVersionRouteHandlers(deps),
    ...fileRouteHandlers(deps),
  ])
})
afterEach(() => kit.close())

/** Posts `text` as it is (no re-encoding), as root. */
const postText = (path: string, text: string) =>
  kit.as(kit.rootToken)(path, {
    method: 'POST',
    body: text,
    headers: { 'content-type': 'application/json' },
  })

/** A `where` of `levels` nested `not`s around one comparison (the engine allows 16). */
function nestedWhere(levels: number): string {
  let where = '{"field":"/a","op":"eq","value":1}'
  for (let i = 0; i < levels; i++) where = `{"not":${where}}`
  return where
}

describe('JSON bodies nested too deep', () => {
  it('refuses a query whose where nests thousands deep with 400, not a stack overflow', async () => {
    const res = await postText('/files/query', `{"path":"/","where":${nestedWhere(5000)}}`)
    const error = await errorOf(res, 400)
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`)
    expect(error.details).toEqual([{ path: 'body', message: expect.stringContaining('deeper') }])
  })

  it('refuses snapshot metadata nested thousands deep', async () => {
    const metadata = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)
    const res = await postText('/versions/snapshots', `{"name":"deep","metadata":${metadata}}`)
    expect((await errorOf(res, 400)).code).toBe('VALIDATION_FAILED')
    await expect(kit.db.snapshots.get('deep')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('refuses deep arrays inside a value too', async () => {
    const value = '['.repeat(5000) + ']'.repeat(5000)
    const res = await postText(
      '/files/query',
      `{"path":"/","where":{"field":"/a","op":"in","value":${value}}}`,
    )
    expect((await errorOf(res, 400)).code).toBe('VALIDATION_FAILED')
  })

  it(`accepts ${MAX_JSON_DEPTH} levels`, async () => {
    // The body object is the first level, the metadata object the second.
    const levels = MAX_JSON_DEPTH - 1
    const metadata = '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)
    const res = await postText('/versions/snapshots', `{"name":"deep","metadata":${metadata}}`)
    expect(res.status, await res.clone().text()).toBe(201)
    const tooDeep = `{"name":"deeper","metadata":{"b":${metadata}}}`
    expect((await errorOf(await postText('/versions/snapshots', tooDeep), 400)).code).toBe(
      'VALIDATION_FAILED',
    )
  })
})

describe('JSON bodies past the size limit', () => {
  it('stops reading at the limit even when Content-Length lies low', async () => {
    let pulled = 0
    const piece = new Uint8Array(64 * 1024).fill(0x61)
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"path":"'))
      },
      pull(controller) {
        pulled += piece.length
        // 64 MiB in all, if anyone read it.
        if (pulled > 64 * 1024 * 1024) controller.close()
        else controller.enqueue(piece)
      },
    })
    const res = await kit.app.request('/files/query', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: {
        authorization: `Bearer ${kit.rootToken}`,
        'content-type': 'application/json',
        'content-length': '10',
      },
    } as RequestInit)
    expect((await errorOf(res, 413)).code).toBe('PAYLOAD_TOO_LARGE')
    // The limit plus what the stream had queued ahead, not the 64 MiB on offer.
    expect(pulled).toBeLessThan(MAX_JSON_BODY_BYTES + 1024 * 1024)
  })

  it('refuses a declared length past the limit without reading', async () => {
    const res = await kit.app.request('/files/query', {
      method: 'POST',
      body: '{}',
      headers: {
        authorization: `Bearer ${kit.rootToken}`,
        'content-type': 'application/json',
        'content-length': String(MAX_JSON_BODY_BYTES + 1),
      },
    })
    expect((await errorOf(res, 413)).code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('counts bytes, not characters', async () => {
    // 600,000 two-byte characters: 1.2 MB, fewer than a million UTF-16 units.
    const res = await postText('/files/query', `{"path":"/${'é'.repeat(600_000)}"}`)
    expect((await errorOf(res, 413)).code).toBe('PAYLOAD_TOO_LARGE')
  })
})

describe('nestingExceeds', () => {
  it('counts brackets outside strings only', () => {
    expect(nestingExceeds('[[[]]]', 3)).toBe(false)
    expect(nestingExceeds('[[[[]]]]', 3)).toBe(true)
    expect(nestingExceeds(`{"a":"${'['.repeat(100)}"}`, 1)).toBe(false)
    expect(nestingExceeds('{"a\\"[[[":1}', 1)).toBe(false)
    expect(nestingExceeds('["\\\\",[[]]]', 2)).toBe(true)
  })

  it('looks at depth, not at how many siblings there are', () => {
    expect(nestingExceeds(`[${'[],'.repeat(10_000)}[]]`, 2)).toBe(false)
  })
})
