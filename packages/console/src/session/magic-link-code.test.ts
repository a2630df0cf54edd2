import { describe, expect, it } from 'vitest'
import { takeMagicLinkCode } from './magic-link-code'

describe('takeMagicLinkCode', () => {
  it('takes the code and gives the address without it', () => {
    expect(takeMagicLinkCode('https://db.example.com/console/?magic_link_code=abc')).toEqual({
      code: 'abc',
      cleanUrl: '/console/',
    })
  })

  it('decodes the code and keeps other parameters and the hash', () => {
    expect(
      takeMagicLinkCode('http://127.0.0.1:6830/console/?x=1&magic_link_code=a%2Bb%3D#/files/docs'),
    ).toEqual({ code: 'a+b=', cleanUrl: '/console/?x=1#/files/docs' })
  })

  it('finds nothing in an address without a code', () => {
    expect(takeMagicLinkCode('http://127.0.0.1:6830/console/#/versions')).toBeUndefined()
    expect(takeMagicLinkCode('http://127.0.0.1:6830/console/?code=abc')).toBeUndefined()
  })

  it('reports an empty code as such, for the screen to refuse', () => {
    expect(takeMagicLinkCode('http://127.0.0.1:6830/console/?magic_link_code=')).toEqual({
      code: '',
      cleanUrl: '/console/',
    })
  })
})
