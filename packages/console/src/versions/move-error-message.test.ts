import { ClientError } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import { moveErrorMessage } from './move-error-message'

describe('moveErrorMessage', () => {
  it('explains a 409 as a HEAD that moved, keeping the server message', () => {
    const err = new ClientError('CONFLICT', 'HEAD is not 00ff', { status: 409 })
    const message = moveErrorMessage(err)
    expect(message).toMatch(/^HEAD moved since this screen read it, so nothing was changed/)
    expect(message).toContain('HEAD is not 00ff')
  })

  it('passes other failures through as their own message', () => {
    const err = new ClientError('NOT_FOUND', 'no snapshot named "x"', { status: 404 })
    expect(moveErrorMessage(err)).toBe('no snapshot named "x"')
  })
})
