import type { Client } from '@svcdb/client'
import type { CollectionLayout } from './collection-layout'
import { upstreamError } from './upstream-error'

/** Options of {@link watchCollection}. */
export interface WatchCollectionOptions {
  client: Client
  layout: CollectionLayout
  /** A session file was created (by any app instance, or by hand). */
  onSession(id: string): void
  /** A dispatch record was created. */
  onDispatched(id: string): void
  /**
   * The stream is live, but what happened before is unknown: once when it opens, and again
   * whenever svcdb could not replay what a reconnection missed. The caller lists the collection.
   */
  onResync(): void
  /** Stops watching; the returned promise then resolves. */
  signal: AbortSignal
}

/**
 * A Last-Event-ID no server issued. svcdb answers it with an `events_lost` event before any
 * other, which tells the watcher the moment its stream is live: listing the collection after
 * that point cannot miss a session created between the listing and the subscription.
 */
const NEVER_ISSUED_ID = 'sessions-app-start'

/**
 * Follows svcdb's event stream for the collection (`entries_created` under its directory, HEAD
 * only) and reports session files and dispatch records as they are created. The client
 * reconnects and resumes by itself; the promise rejects only when svcdb refuses the stream
 * for good (a revoked key, say) and resolves once `signal` aborts.
 */
export async function watchCollection(options: WatchCollectionOptions): Promise<void> {
  const { client, layout, signal } = options
  const events = client.events.subscribe({
    events: ['entries_created'],
    pathPrefix: `${layout.dir}/`,
    lastEventId: NEVER_ISSUED_ID,
    signal,
  })
  try {
    for await (const event of events) {
      if (event.event_type === 'events_lost') {
        options.onResync()
        continue
      }
      // Writes to a fork are not the collection until the fork is promoted.
      if (event.event_type !== 'entries_created' || event.payload.fork !== undefined) continue
      for (const entry of event.payload.entries) {
        if (entry.entry_type !== undefined && entry.entry_type !== 'file') continue
        const file = layout.parse(entry.path)
        if (file?.kind === 'session') options.onSession(file.id)
        else if (file?.kind === 'dispatched') options.onDispatched(file.id)
      }
    }
  } catch (err) {
    throw upstreamError(err, `watching ${layout.dir}`)
  }
}
