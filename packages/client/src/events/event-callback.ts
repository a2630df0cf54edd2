import type { EventEnvelope } from '@svcdb/events'
import type { Transport } from '../http/transport'
import { subscribeEvents } from './event-subscription'
import type { SubscribeOptions } from './event-subscription'

/** Where an error reported to `onError` came from. */
export type SubscriptionErrorSource = 'callback' | 'stream'

/** Options of `events.subscribe(options, callback)`. */
export interface SubscribeCallbackOptions extends SubscribeOptions {
  /**
   * Told of every error, with where it came from: `'callback'` when the callback threw or its
   * promise rejected (the subscription goes on with the next event), `'stream'` when an error
   * a reconnection cannot fix ended the subscription (a `ClientError`: a bad filter, a revoked
   * credential). Without it, errors are written with `console.error`; they are never dropped.
   */
  onError?: (error: unknown, source: SubscriptionErrorSource) => void
}

/**
 * Ends a callback subscription. The promise settles once the stream is closed and no
 * callback runs any more; it never rejects.
 */
export type Unsubscribe = () => Promise<void>

/**
 * Runs `callback` for every envelope of the event stream, one at a time and in order (a
 * promise it returns is awaited before the next event), reconnecting as the async iterator
 * does. Returns the function that ends it; aborting `options.signal` ends it too.
 */
export function subscribeWithCallback(
  t: Transport,
  options: SubscribeCallbackOptions,
  callback: (event: EventEnvelope) => void | Promise<void>,
): Unsubscribe {
  const controller = new AbortController()
  const signal =
    options.signal === undefined
      ? controller.signal
      : AbortSignal.any([options.signal, controller.signal])
  const report = (error: unknown, source: SubscriptionErrorSource) => {
    try {
      if (options.onError !== undefined) return options.onError(error, source)
    } catch (thrown) {
      error = thrown
    }
    console.error(
      `svcdb events.subscribe: ${source === 'callback' ? 'the callback' : 'the stream'} failed`,
      error,
    )
  }
  const done = (async () => {
    try {
      for await (const event of subscribeEvents(t, { ...options, signal })) {
        try {
          await callback(event)
        } catch (err) {
          report(err, 'callback')
        }
      }
    } catch (err) {
      report(err, 'stream')
    }
  })()
  return () => {
    controller.abort()
    return done
  }
}
