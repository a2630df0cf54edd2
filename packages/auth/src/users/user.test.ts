import { describe, expect, it } from 'vitest'
import { isAuthError } from '../errors'
import { identityKey, parseCreateUserInput, parseUpdateUserInput } from './user'

const refusal = (fn: () => unknown) => {
  try {
    fn()
  } catch (err) {
    expect(isAuthError(err, 'INVALID_INPUT')).toBe(true)
    return (err as Error).message
  }
  throw new Error('expected a refusal')
}

describe('user input', () => {
  it('accepts a username alone, or with email and tags', () => {
    expect(parseCreateUserInput({ username: 'alice' })).toEqual({ username: 'alice' })
    expect(
      parseCreateUserInput({
        username: 'bob.smith',
        email: ' bob@example.com ',
        tags: ['eng', 'ops', 'eng'],
      }),
    ).toEqual({ username: 'bob.smith', email: 'bob@example.com', tags: ['eng', 'ops'] })
  })

  it('refuses every malformed field, naming it', () => {
    expect(refusal(() => parseCreateUserInput({}))).toMatch(/^username: /)
    expect(refusal(() => parseCreateUserInput({ username: '' }))).toMatch(/^username: /)
    expect(refusal(() => parseCreateUserInput({ username: 'a b' }))).toMatch(/^username: /)
    expect(refusal(() => parseCreateUserInput({ username: 'a'.repeat(65) }))).toMatch(/^username: /)
    expect(refusal(() => parseCreateUserInput({ username: 'a', email: 'nope' }))).toMatch(
      /^email: /,
    )
    expect(refusal(() => parseCreateUserInput({ username: 'a', tags: ['a,b'] }))).toMatch(
      /^tags\.0: /,
    )
    expect(refusal(() => parseCreateUserInput({ username: 'a', tags: 'a' }))).toMatch(/^tags: /)
    expect(
      refusal(() => parseCreateUserInput({ username: 'a', tags: Array(101).fill('t') })),
    ).toMatch(/^tags: /)
    expect(refusal(() => parseCreateUserInput({ username: 'a', isActive: false }))).toMatch(
      /isActive|must be an object/,
    )
  })

  it('validates changes, allowing the email to be removed', () => {
    expect(parseUpdateUserInput({ email: null, isActive: false })).toEqual({
      email: null,
      isActive: false,
    })
    expect(refusal(() => parseUpdateUserInput({ isActive: 'no' }))).toMatch(/^isActive: /)
    expect(refusal(() => parseUpdateUserInput({ userId: 'x' }))).toMatch(/userId|must be/)
  })

  it('makes usernames and emails unique regardless of case', () => {
    expect(identityKey(' Alice@Example.COM ')).toBe('alice@example.com')
  })
})
