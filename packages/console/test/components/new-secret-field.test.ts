// @vitest-environment happy-dom
import { fireEvent } from '@testing-library/dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import NewSecretField from '../../src/identity/new-secret-field.svelte'
import { cleanup, render, settled } from './render'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const KEY = 'svk_0123456789abcdef'

describe('new-secret-field.svelte', () => {
  it('shows the secret in a read-only field named by its label, saying it is shown only now', () => {
    const view = render(NewSecretField, { label: 'New API key', value: KEY })
    const field = view.getByRole<HTMLInputElement>('textbox', { name: 'New API key' })
    expect(field.value).toBe(KEY)
    expect(field.readOnly).toBe(true)
    expect(view.getByText('Shown only now: store it somewhere safe.')).toBeTruthy()
    expect(view.queryByRole('status')).toBeNull()
  })

  it('copies exactly the secret to the clipboard and says so', async () => {
    await navigator.clipboard.writeText('something else')
    const view = render(NewSecretField, { label: 'New API key', value: KEY })
    await fireEvent.click(view.getByRole('button', { name: 'Copy' }))
    await settled()
    expect(await navigator.clipboard.readText()).toBe(KEY)
    expect(view.getByRole('status').textContent).toBe('Copied.')
  })

  it('selects the secret for the keyboard when the clipboard refuses', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('Write permission denied.', 'NotAllowedError'),
    )
    const view = render(NewSecretField, { label: 'New API key', value: KEY })
    const field = view.getByRole<HTMLInputElement>('textbox', { name: 'New API key' })
    await fireEvent.click(view.getByRole('button', { name: 'Copy' }))
    await settled()
    expect(view.getByRole('status').textContent).toBe('Selected: copy it with your keyboard.')
    expect(document.activeElement).toBe(field)
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, KEY.length])
  })
})
