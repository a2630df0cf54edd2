import { describe, expect, it } from 'vitest'
import { fileUrl } from './file-url'

describe('fileUrl', () => {
  it('encodes each segment and keeps the slashes between them', () => {
    expect(fileUrl('http://127.0.0.1:6830/', '/a b/c#1.txt')).toBe(
      'http://127.0.0.1:6830/files/a%20b/c%231.txt',
    )
  })
})
