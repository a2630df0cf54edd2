import { describe, expect, it } from 'vitest'
import { isTextual, MEDIA_PREVIEW_BYTES, previewKind, tooLargeToPreview } from './preview-kind'

describe('previewKind', () => {
  it('follows the content type first', () => {
    expect(previewKind('text/plain; charset=utf-8', 'a.bin')).toBe('text')
    expect(previewKind('application/json', 'a')).toBe('json')
    expect(previewKind('application/ld+json', 'a')).toBe('json')
    expect(previewKind('text/markdown', 'a')).toBe('markdown')
    expect(previewKind('image/png', 'a')).toBe('image')
    expect(previewKind('image/svg+xml', 'a.svg')).toBe('text')
    expect(previewKind('audio/mpeg', 'a')).toBe('audio')
    expect(previewKind('video/webm', 'a')).toBe('video')
    expect(previewKind('application/pdf', 'a')).toBe('pdf')
    expect(previewKind('application/zip', 'a.txt')).toBe('none')
  })

  it('falls back on the extension when the type says nothing', () => {
    expect(previewKind('application/octet-stream', 'notes.MD')).toBe('markdown')
    expect(previewKind(null, 'data.json')).toBe('json')
    expect(previewKind(undefined, 'a.log')).toBe('text')
    expect(previewKind('', 'p.png')).toBe('image')
    expect(previewKind('application/octet-stream', 'song.ogg')).toBe('audio')
    expect(previewKind('application/octet-stream', 'clip.mp4')).toBe('video')
    expect(previewKind('application/octet-stream', 'doc.pdf')).toBe('pdf')
    expect(previewKind('application/octet-stream', 'blob')).toBe('none')
    expect(previewKind('application/octet-stream', '.txt')).toBe('none')
  })

  it('tells the kinds read as text', () => {
    expect(['text', 'json', 'markdown'].every((k) => isTextual(k as never))).toBe(true)
    expect(isTextual('image')).toBe(false)
  })

  it('previews media up to its limit, text of any size (only its start is read)', () => {
    expect(tooLargeToPreview('video', MEDIA_PREVIEW_BYTES)).toBe(false)
    expect(tooLargeToPreview('video', MEDIA_PREVIEW_BYTES + 1)).toBe(true)
    expect(tooLargeToPreview('pdf', 2 ** 31)).toBe(true)
    expect(tooLargeToPreview('json', 2 ** 31)).toBe(false)
    expect(tooLargeToPreview('none', 2 ** 31)).toBe(false)
  })
})
