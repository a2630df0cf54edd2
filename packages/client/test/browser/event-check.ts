import type { Client } from '@svcdb/client'
import type { PageResults } from './page-report'

/**
 * Subscribes to `entries_created` under `/events/` and writes there until an event arrives:
 * the client does not say when the stream is open, and a write before that is not delivered.
 */
export async function eventCheck(client: Client): Promise<PageResults['event']> {
  const controller = new AbortController()
  const events = client.events.subscribe({
    events: ['entries_created'],
    pathPrefix: '/events/',
    signal: controller.signal,
  })
  const iterator = events[Symbol.asyncIterator]()
  const received = iterator.next()
  let arrived = false
  void received.finally(() => (arrived = true))
  try {
    for (let i = 0; !arrived && i < 40; i++) {
      await client.files.write(`/events/e${i}.txt`, `event ${i}`)
      await Promise.race([received, delay(250)])
    }
    const { value, done } = await received
    if (done === true) throw new Error('the subscription ended without an event')
    const payload = value.payload as { entries?: { path: string }[] }
    return {
      eventType: value.event_type,
      paths: (payload.entries ?? []).map((entry) => entry.path),
    }
  } finally {
    controller.abort()
    await iterator.return?.(undefined)
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
