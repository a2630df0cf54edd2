/** True when the drag carries files (not text or a link being dragged within the page). */
function carriesFiles(event: Event): boolean {
  const transfer = (event as DragEvent).dataTransfer
  return transfer?.types.includes('Files') === true
}

/**
 * Refuses files dragged or dropped anywhere the drop zone did not take them (the toolbar, the
 * header): left alone, the browser would leave the console to show the dropped file. The drop
 * zone handles its own events first (they bubble up to `target`) and marks them handled.
 * Answers the function that takes the guard away.
 */
export function guardDocumentDrops(target: EventTarget): () => void {
  const refuse = (event: Event): void => {
    if (event.defaultPrevented || !carriesFiles(event)) return
    event.preventDefault()
    // The pointer says no drop here, rather than promising a copy.
    const transfer = (event as DragEvent).dataTransfer
    if (transfer !== null) transfer.dropEffect = 'none'
  }
  target.addEventListener('dragover', refuse)
  target.addEventListener('drop', refuse)
  return () => {
    target.removeEventListener('dragover', refuse)
    target.removeEventListener('drop', refuse)
  }
}
