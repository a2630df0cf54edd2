import { ClientError } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import { errorMessage } from './error-message'

describe('errorMessage', () => {
  it("shows the server's message", () => {
    const err = new ClientError('UNAUTHORIZED', 'invalid API key', { status: 401 })
    expect(errorMessage(err)).toBe('invalid API key')
  })

  it('says plainly that the server is unreachable instead of the fetch details', () => {
    const err = new ClientError('NETWORK_ERROR', 'GET http://x/: TypeError: fetch failed', {
      status: 0,
    })
    expect(errorMessage(err)).toBe('The server cannot be reached.')
  })

  it('falls back to the text of anything else thrown', () => {
    expect(errorMessage('boom')).toBe('boom')
  })
})
