import { describe, expect, it } from 'vitest'
import { encodeSseComment, encodeSseMessage } from './encode-sse'

describe('encodeSseMessage', () => {
  it('writes id, event, retry and one data line per line', () => {
    expect(encodeSseMessage({ id: 'b-1', event: 'metrics', retry: 500, data: 'a\nb\r\nc' })).toBe(
      'id: b-1\nevent: metrics\nretry: 500\ndata: a\ndata: b\ndata: c\n\n',
    )
    expect(encodeSseMessage({ data: '' })).toBe('data: \n\n')
  })

  it('refuses ids and names that would break the framing', () => {
    expect(() => encodeSseMessage({ id: 'a\nb', data: '' })).toThrow(TypeError)
    expect(() => encodeSseMessage({ id: 'a\0', data: '' })).toThrow(TypeError)
    expect(() => encodeSseMessage({ event: 'x\ry', data: '' })).toThrow(TypeError)
    expect(() => encodeSseMessage({ event: '', data: '' })).toThrow(TypeError)
    expect(() => encodeSseMessage({ retry: -1, data: '' })).toThrow(TypeError)
  })
})

describe('encodeSseComment', () => {
  it('writes a comment frame', () => {
    expect(encodeSseComment('ping')).toBe(': ping\n\n')
    expect(encodeSseComment('a\nb')).toBe(': a\n: b\n\n')
  })
})
