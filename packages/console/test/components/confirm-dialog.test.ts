// @vitest-environment happy-dom
import { fireEvent } from '@testing-library/dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import ConfirmDialog from '../../src/files/confirm-dialog.svelte'
import { cleanup, render } from './render'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const open = (detail?: string) => {
  const onConfirm = vi.fn()
  const onCancel = vi.fn()
  const view = render(ConfirmDialog, {
    question: 'Delete notes.txt?',
    ...(detail === undefined ? {} : { detail }),
    confirmLabel: 'Delete',
    onConfirm,
    onCancel,
  })
  const dialog = view.getByRole<HTMLDialogElement>('dialog', { name: 'Delete notes.txt?' })
  return { view, dialog, onConfirm, onCancel }
}

describe('confirm-dialog.svelte', () => {
  it('opens as a modal dialog named by its question, with the detail below it', () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, 'showModal')
    const { view, dialog } = open('It cannot be undone.')
    // Modal, so that browsers make the page inert and close it on Escape.
    expect(showModal).toHaveBeenCalledOnce()
    expect(dialog.open).toBe(true)
    expect(view.getByText('It cannot be undone.')).toBeTruthy()
    // Cancel comes first: showModal() focuses it, so a stray Enter deletes nothing.
    const buttons = view.getAllByRole('button').map((b) => b.textContent)
    expect(buttons).toEqual(['Cancel', 'Delete'])
  })

  it('confirms once and closes, without cancelling too', async () => {
    const { view, dialog, onConfirm, onCancel } = open()
    await fireEvent.click(view.getByRole('button', { name: 'Delete' }))
    expect(onConfirm).toHaveBeenCalledOnce()
    expect(onCancel).not.toHaveBeenCalled()
    expect(dialog.open).toBe(false)
  })

  it('cancels by its Cancel button', async () => {
    const { view, dialog, onConfirm, onCancel } = open()
    await fireEvent.click(view.getByRole('button', { name: 'Cancel' }))
    expect(onCancel).toHaveBeenCalledOnce()
    expect(onConfirm).not.toHaveBeenCalled()
    expect(dialog.open).toBe(false)
  })

  it('cancels when the browser closes it, as it does on Escape', async () => {
    const { dialog, onConfirm, onCancel } = open()
    // happy-dom has no close requests: this is what a browser does when Escape is pressed
    // in a modal dialog: a `cancel` event, then it closes (the e2e tests press the real key).
    await fireEvent(dialog, new Event('cancel', { cancelable: true }))
    dialog.close()
    expect(dialog.open).toBe(false)
    expect(onCancel).toHaveBeenCalledOnce()
    expect(onConfirm).not.toHaveBeenCalled()
  })
})
