// @vitest-environment happy-dom
import { fireEvent } from '@testing-library/dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import NameForm from '../../src/versions/name-form.svelte'
import { cleanup, deferred, render, settled } from './render'

afterEach(cleanup)

const props = (onSubmit: (name: string) => Promise<boolean>) => ({
  label: 'Snapshot name',
  action: 'Create snapshot',
  onSubmit,
})

describe('name-form.svelte', () => {
  it('submits the trimmed name, is busy meanwhile, and empties the field when it resolves true', async () => {
    const answer = deferred<boolean>()
    const onSubmit = vi.fn(() => answer.promise)
    const view = render(NameForm, props(onSubmit))
    const field = view.getByLabelText<HTMLInputElement>('Snapshot name')
    const button = view.getByRole<HTMLButtonElement>('button', { name: 'Create snapshot' })

    await fireEvent.input(field, { target: { value: '  before-upgrade ' } })
    await fireEvent.click(button)
    await settled()
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('before-upgrade')
    expect(button.disabled).toBe(true)

    answer.resolve(true)
    await settled()
    expect(button.disabled).toBe(false)
    expect(field.value).toBe('')
  })

  it('keeps the name when the submission resolves false, for the user to fix it', async () => {
    const onSubmit = vi.fn(() => Promise.resolve(false))
    const view = render(NameForm, props(onSubmit))
    const field = view.getByLabelText<HTMLInputElement>('Snapshot name')

    await fireEvent.input(field, { target: { value: 'taken' } })
    await fireEvent.click(view.getByRole('button', { name: 'Create snapshot' }))
    await settled()
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('taken')
    expect(field.value).toBe('taken')
    expect(view.getByRole<HTMLButtonElement>('button', { name: 'Create snapshot' }).disabled).toBe(
      false,
    )
  })

  it('asks for a name: the field is required and at most 128 characters', () => {
    const view = render(NameForm, props(vi.fn(() => Promise.resolve(true))))
    const field = view.getByRole<HTMLInputElement>('textbox', { name: 'Snapshot name' })
    expect(field.required).toBe(true)
    expect(field.maxLength).toBe(128)
  })
})
