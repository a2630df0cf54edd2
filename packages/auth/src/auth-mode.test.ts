import { describe, expect, it } from 'vitest'
import { formatAuthMode, parseAuthMode } from './auth-mode'
import { isAuthError } from './errors'

describe('auth mode', () => {
  it('parses the three modes and formats them back', () => {
    for (const raw of [
      'disabled',
      'self-contained',
      'file:///var/lib/svcdb/identity',
      'file://id',
    ]) {
      expect(formatAuthMode(parseAuthMode(raw))).toBe(raw)
    }
    expect(parseAuthMode('file:///abs/dir')).toEqual({ kind: 'file', path: '/abs/dir' })
    expect(parseAuthMode('file://rel/dir')).toEqual({ kind: 'file', path: 'rel/dir' })
  })

  it('refuses anything else', () => {
    for (const raw of ['', 'file://', 'file', 'jwt', 'Disabled', 'file://  ']) {
      let err: unknown
      try {
        parseAuthMode(raw)
      } catch (e) {
        err = e
      }
      expect(isAuthError(err, 'INVALID_INPUT')).toBe(true)
    }
  })
})
