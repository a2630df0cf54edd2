// @vitest-environment happy-dom
import { ClientError } from '@svcdb/client'
import { fireEvent } from '@testing-library/dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import SignIn from '../../src/sign-in/sign-in.svelte'
import { cleanup, deferred, render, settled } from './render'

afterEach(cleanup)

describe('sign-in.svelte', () => {
  it('submits the trimmed key, is busy meanwhile, and keeps no key afterwards', async () => {
    const answer = deferred<undefined>()
    const onSignIn = vi.fn(() => answer.promise)
    const view = render(SignIn, { onSignIn })
    const field = view.getByLabelText<HTMLInputElement>('API key')
    const button = view.getByRole<HTMLButtonElement>('button', { name: 'Sign in' })
    // A password field: the key is not shown on screen.
    expect(field.type).toBe('password')

    await fireEvent.input(field, { target: { value: ' svk_secret \n' } })
    await fireEvent.click(button)
    await settled()
    expect(onSignIn).toHaveBeenCalledExactlyOnceWith('svk_secret')
    expect(button.disabled).toBe(true)

    answer.resolve(undefined)
    await settled()
    expect(button.disabled).toBe(false)
    expect(field.value).toBe('')
    expect(view.queryByRole('alert')).toBeNull()
  })

  it("shows the server's refusal as an alert, clears the key, and lets the user try again", async () => {
    const onSignIn = vi
      .fn<(apiKey: string) => Promise<void>>()
      .mockRejectedValueOnce(new ClientError('UNAUTHORIZED', 'invalid API key', { status: 401 }))
      .mockResolvedValueOnce(undefined)
    const view = render(SignIn, { onSignIn })
    const field = view.getByLabelText<HTMLInputElement>('API key')
    const button = view.getByRole<HTMLButtonElement>('button', { name: 'Sign in' })

    await fireEvent.input(field, { target: { value: 'svk_wrong' } })
    await fireEvent.click(button)
    await settled()
    expect(view.getByRole('alert').textContent).toBe('invalid API key')
    expect(field.value).toBe('')
    expect(button.disabled).toBe(false)

    // The next attempt starts without the old refusal.
    await fireEvent.input(field, { target: { value: 'svk_right' } })
    await fireEvent.click(button)
    await settled()
    expect(onSignIn).toHaveBeenLastCalledWith('svk_right')
    expect(view.queryByRole('alert')).toBeNull()
  })

  it('says a server that cannot be reached in plain words', async () => {
    const onSignIn = vi.fn(() =>
      Promise.reject(new ClientError('NETWORK_ERROR', 'fetch failed', { status: 0 })),
    )
    const view = render(SignIn, { onSignIn })
    await fireEvent.input(view.getByLabelText('API key'), { target: { value: 'svk_x' } })
    await fireEvent.click(view.getByRole('button', { name: 'Sign in' }))
    await settled()
    expect(view.getByRole('alert').textContent).toBe('The server cannot be reached.')
  })

  it('shows why the user is here again, and why a magic link did not sign in', () => {
    const view = render(SignIn, {
      onSignIn: vi.fn(() => Promise.resolve()),
      notice: 'Your session ended: sign in again.',
      linkError: 'This sign-in link has expired.',
    })
    expect(view.getByRole('status').textContent).toBe('Your session ended: sign in again.')
    expect(view.getByRole('alert').textContent).toBe('This sign-in link has expired.')
  })

  it('offers a magic link by email only when the server delivers them', async () => {
    const bare = render(SignIn, { onSignIn: vi.fn(() => Promise.resolve()) })
    expect(bare.queryByLabelText('Email')).toBeNull()
    cleanup()

    const onRequestMagicLink = vi.fn((_email: string) => Promise.resolve('sent'))
    const view = render(SignIn, { onSignIn: vi.fn(() => Promise.resolve()), onRequestMagicLink })
    await fireEvent.input(view.getByLabelText('Email'), { target: { value: 'ada@example.org' } })
    await fireEvent.click(view.getByRole('button', { name: 'Email me a sign-in link' }))
    await settled()
    expect(onRequestMagicLink).toHaveBeenCalledExactlyOnceWith('ada@example.org')
    expect(view.getByRole('status').textContent).toContain('ada@example.org')
  })
})
