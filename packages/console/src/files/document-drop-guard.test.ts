import { describe, expect, it } from 'vitest'
import { guardDocumentDrops } from './document-drop-guard'

/** A cancelable drag event of `type` carrying `types`, as Node has no DragEvent. */
function drag(type: string, types: string[]): Event & { dataTransfer: { types: string[] } } {
  const event = new Event(type, { cancelable: true }) as Event & {
    dataTransfer: { types: string[]; dropEffect: string }
  }
  event.dataTransfer = { types, dropEffect: 'copy' }
  return event
}

describe('guardDocumentDrops', () => {
  it('refuses files dropped or dragged over where nothing took them', () => {
    const target = new EventTarget()
    guardDocumentDrops(target)
    const over = drag('dragover', ['Files'])
    const drop = drag('drop', ['Files'])
    target.dispatchEvent(over)
    target.dispatchEvent(drop)
    expect(over.defaultPrevented).toBe(true)
    expect(over.dataTransfer).toMatchObject({ dropEffect: 'none' })
    expect(drop.defaultPrevented).toBe(true)
  })

  it('leaves drags of text alone, so text still drops into fields', () => {
    const target = new EventTarget()
    guardDocumentDrops(target)
    const drop = drag('drop', ['text/plain'])
    target.dispatchEvent(drop)
    expect(drop.defaultPrevented).toBe(false)
  })

  it('leaves a drop the drop zone took as it is', () => {
    const target = new EventTarget()
    guardDocumentDrops(target)
    const over = drag('dragover', ['Files'])
    over.preventDefault()
    target.dispatchEvent(over)
    expect(over.dataTransfer).toMatchObject({ dropEffect: 'copy' })
  })

  it('stops guarding once taken away', () => {
    const target = new EventTarget()
    guardDocumentDrops(target)()
    const drop = drag('drop', ['Files'])
    target.dispatchEvent(drop)
    expect(drop.defaultPrevented).toBe(false)
  })
})
