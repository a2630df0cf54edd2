import { describe, expect, it } from 'vitest'
import { consoleMagicLinkUrl } from './console-magic-link'

describe('consoleMagicLinkUrl', () => {
  it('opens the console with the code as magic_link_code, escaped', () => {
    expect(consoleMagicLinkUrl('https://db.example.com', 'abc')).toBe(
      'https://db.example.com/console/?magic_link_code=abc',
    )
    expect(consoleMagicLinkUrl('http://127.0.0.1:6830//', 'a+b/c=')).toBe(
      'http://127.0.0.1:6830/console/?magic_link_code=a%2Bb%2Fc%3D',
    )
  })
})
