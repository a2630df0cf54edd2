import { describe, expect, it } from 'vitest'
import { typedUpload } from './upload-body'

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]

/** `bytes` as a request body arriving `step` bytes at a time. */
async function* arriving(bytes: Uint8Array, step: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += step) yield bytes.slice(at, at + step)
}

async function collect(data: Uint8Array | AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return Buffer.from(data)
  const parts: Uint8Array[] = []
  for await (const part of data) parts.push(part)
  return Buffer.concat(parts)
}

function png(size: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(7)
  bytes.set(PNG)
  return bytes
}

describe('typedUpload', () => {
  it('hands a body that ended while sniffing on as its bytes, typed as a streamed one is', async () => {
    for (const step of [1000, 4096]) {
      const small = await typedUpload(arriving(png(4096), step), undefined, '/img/logo')
      expect(small.data).toBeInstanceOf(Uint8Array)
      expect(small.contentType).toBe('image/png')
      expect(await collect(small.data)).toEqual(Buffer.from(png(4096)))

      const large = await typedUpload(arriving(png(50_000), step), undefined, '/img/logo')
      expect(large.data).not.toBeInstanceOf(Uint8Array)
      expect(large.contentType).toBe('image/png')
      expect(await collect(large.data)).toEqual(Buffer.from(png(50_000)))
    }
  })

  it('tells text from binary in small bodies, and leaves an empty body empty', async () => {
    const text = await typedUpload(
      arriving(new TextEncoder().encode('héllo\n'), 3),
      undefined,
      '/Makefile',
    )
    expect(text.contentType).toBe('text/plain; charset=utf-8')
    expect(Buffer.from(await collect(text.data)).toString()).toBe('héllo\n')
    const binary = await typedUpload(arriving(new Uint8Array([1, 0, 2]), 8), undefined, '/blob')
    expect(binary.contentType).toBe('application/octet-stream')
    const empty = await typedUpload(arriving(new Uint8Array(0), 8), undefined, '/empty')
    expect(empty.contentType).toBe('application/octet-stream')
    expect((await collect(empty.data)).length).toBe(0)
  })

  it('keeps a declared type and the body as it streams', async () => {
    const body = arriving(png(100), 10)
    const upload = await typedUpload(body, 'application/x-thing', '/a.png')
    expect(upload).toEqual({ contentType: 'application/x-thing', data: body })
  })

  it('types by name without holding the body back, and ignores tool defaults', async () => {
    for (const declared of [
      undefined,
      'application/octet-stream',
      'application/x-www-form-urlencoded',
    ]) {
      const body = arriving(new TextEncoder().encode('# title\n'), 4)
      const upload = await typedUpload(body, declared, '/docs/README.md')
      // The body is handed on untouched: nothing was read to decide.
      expect(upload).toEqual({ contentType: 'text/markdown', data: body })
    }
    const json = await typedUpload(
      arriving(new TextEncoder().encode('{}'), 4),
      undefined,
      '/a.json',
    )
    expect(json.contentType).toBe('application/json')
  })
})
