import { describe, expect, it } from 'vitest'
import { loadSignInOffer, parseSignInOffer } from './sign-in-offer'

const answering =
  (status: number, body: string): typeof fetch =>
  () =>
    Promise.resolve(new Response(body, { status, headers: { 'content-type': 'application/json' } }))

describe('parseSignInOffer', () => {
  it('offers a magic link only when the server says true', () => {
    expect(parseSignInOffer({ magic_link: true })).toEqual({ magicLink: true })
    expect(parseSignInOffer({ magic_link: false })).toEqual({ magicLink: false })
    expect(parseSignInOffer({ magic_link: 'yes' })).toEqual({ magicLink: false })
    expect(parseSignInOffer(null)).toEqual({ magicLink: false })
    expect(parseSignInOffer([true])).toEqual({ magicLink: false })
  })
})

describe('loadSignInOffer', () => {
  it('reads the server’s answer at the given address', async () => {
    const asked: string[] = []
    const fetchFn: typeof fetch = (input) => {
      asked.push(String(input))
      return answering(200, '{"magic_link":true}')(input)
    }
    expect(await loadSignInOffer('/console/sign-in.json', fetchFn)).toEqual({ magicLink: true })
    expect(asked).toEqual(['/console/sign-in.json'])
  })

  it('offers the API key alone when the server fails, answers an error or no JSON', async () => {
    const offline: typeof fetch = () => Promise.reject(new TypeError('fetch failed'))
    expect(await loadSignInOffer('/x', offline)).toEqual({ magicLink: false })
    expect(await loadSignInOffer('/x', answering(404, '{"magic_link":true}'))).toEqual({
      magicLink: false,
    })
    expect(await loadSignInOffer('/x', answering(200, '<html>'))).toEqual({ magicLink: false })
  })
})
