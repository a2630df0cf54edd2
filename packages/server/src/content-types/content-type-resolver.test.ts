import { describe, expect, it } from 'vitest'
import { looksLikeText, needsBytes, resolveContentType } from './content-type-resolver'

const utf8 = (text: string) => new TextEncoder().encode(text)
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
])

describe('resolveContentType', () => {
  it('takes the type from the name first', async () => {
    expect(await resolveContentType({ path: '/docs/README.md' })).toBe('text/markdown')
    expect(await resolveContentType({ path: '/a.json', head: utf8('{}') })).toBe('application/json')
    expect(await resolveContentType({ path: '/site/index.html' })).toBe('text/html')
    // The name wins over the bytes: a .txt of PNG bytes is what its writer called it.
    expect(await resolveContentType({ path: '/odd.txt', head: PNG })).toBe('text/plain')
  })

  it('looks at the bytes when the name says nothing', async () => {
    expect(await resolveContentType({ path: '/img/logo', head: PNG })).toBe('image/png')
    expect(await resolveContentType({ path: '/Makefile', head: utf8('all:\n\techo ü\n') })).toBe(
      'text/plain; charset=utf-8',
    )
    const binary = Uint8Array.from([1, 2, 0, 255, 254, 3])
    expect(await resolveContentType({ path: '/blob', head: binary })).toBe(
      'application/octet-stream',
    )
    expect(await resolveContentType({ path: '/empty', head: new Uint8Array() })).toBe(
      'application/octet-stream',
    )
    expect(await resolveContentType({ path: '/unknown' })).toBe('application/octet-stream')
  })

  it('keeps a declared type, but not the defaults HTTP tools send unasked', async () => {
    expect(await resolveContentType({ path: '/a.md', declared: 'text/x-custom' })).toBe(
      'text/x-custom',
    )
    expect(await resolveContentType({ path: '/a.md', declared: 'application/octet-stream' })).toBe(
      'text/markdown',
    )
    expect(
      await resolveContentType({ path: '/a.md', declared: 'application/x-www-form-urlencoded' }),
    ).toBe('text/markdown')
    expect(await resolveContentType({ path: '/a.md', declared: '  ' })).toBe('text/markdown')
    // fetch's own default for a string body, spelled exactly so; a person's spelling counts.
    expect(await resolveContentType({ path: '/a.md', declared: 'text/plain;charset=UTF-8' })).toBe(
      'text/markdown',
    )
    expect(await resolveContentType({ path: '/a.md', declared: 'text/plain; charset=utf-8' })).toBe(
      'text/plain; charset=utf-8',
    )
  })

  it('calls .ts TypeScript unless the bytes are a transport stream', async () => {
    expect(await resolveContentType({ path: '/src/a.ts', head: utf8('export {}') })).toBe(
      'application/typescript',
    )
    expect(await resolveContentType({ path: '/src/a.mts' })).toBe('application/typescript')
    const stream = new Uint8Array(188 * 3)
    for (let i = 0; i < stream.length; i += 188) stream[i] = 0x47
    expect(await resolveContentType({ path: '/video/clip.ts', head: stream })).toBe('video/mp2t')
    expect(needsBytes('/src/a.ts')).toBe(true)
    expect(needsBytes('/docs/a.md')).toBe(false)
    expect(needsBytes('/Makefile')).toBe(true)
  })
})

describe('looksLikeText', () => {
  it('accepts UTF-8 cut inside a character and refuses NULs and invalid sequences', () => {
    const text = utf8('x'.repeat(1023) + 'é')
    expect(looksLikeText(text.subarray(0, 1024))).toBe(true)
    expect(looksLikeText(Uint8Array.from([0x61, 0x00, 0x62]))).toBe(false)
    expect(looksLikeText(Uint8Array.from([0x61, 0xff, 0x62]))).toBe(false)
    expect(looksLikeText(new Uint8Array())).toBe(false)
  })
})

describe('names without an extension', () => {
  it('say nothing, so the bytes decide', async () => {
    expect(needsBytes('/img/pic')).toBe(true)
    expect(needsBytes('/json')).toBe(true)
    expect(needsBytes('/home/.env')).toBe(true)
    expect(needsBytes('/trailing.')).toBe(true)
    expect(await resolveContentType({ path: '/img/pic', head: utf8('plain words') })).toBe(
      'text/plain; charset=utf-8',
    )
  })
})
