import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { contentTypeSchema, isContentType, MAX_CONTENT_TYPE_LENGTH } from './content-type'

describe('isContentType', () => {
  it('accepts media types with parameters', () => {
    expect(isContentType('text/plain; charset=utf-8')).toBe(true)
    expect(isContentType('application/vnd.svcdb+json; v=1')).toBe(true)
    expect(isContentType('x')).toBe(true)
  })

  it('refuses what cannot go back out as a header', () => {
    for (const value of [
      '',
      ' text/plain',
      'text/plain ',
      'text/plain\n',
      'text/plain;\tcharset=utf-8',
      'text/plain\r\nx-evil: 1',
      'text/\u0000plain',
      'text/\u007fplain',
      'text/plain; name=é',
      'text/plain; name=\u0100',
      'text/\u{1f600}',
    ])
      expect(isContentType(value), JSON.stringify(value)).toBe(false)
  })

  it(`allows at most ${MAX_CONTENT_TYPE_LENGTH} characters`, () => {
    expect(isContentType(`a/${'b'.repeat(MAX_CONTENT_TYPE_LENGTH - 2)}`)).toBe(true)
    expect(isContentType(`a/${'b'.repeat(MAX_CONTENT_TYPE_LENGTH - 1)}`)).toBe(false)
  })

  it('agrees with contentTypeSchema', () => {
    for (const value of ['text/html', 'text/\u0100', 'a'.repeat(300), ' x'])
      expect(v.is(contentTypeSchema, value)).toBe(isContentType(value))
  })
})
