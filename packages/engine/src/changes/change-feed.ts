import { EngineError } from '../errors'
import type { SequencedChange } from './database-change'

/** Options of {@link ChangeFeed.iterate}. */
export interface ChangeIterationOptions {
  /** Ends the iteration (normally) when aborted. */
  signal?: AbortSignal
  /**
   * Changes kept for a consumer that has not caught up (default 10,000). Beyond that the
   * iteration fails with `OVERRUN` rather than holding unbounded memory or silently skipping.
   */
  bufferSize?: number
}

/** Receives each durable change, synchronously, in commit order. */
export type ChangeListener = (change: SequencedChange) => void

/**
 * Fan-out of durable changes: synchronous listeners (the server's event bus) and async
 * iterators with a bounded buffer each. A throwing listener is isolated from the others and
 * from the commit that produced the change.
 */
export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>()
  private closed = false

  /**
   * `onListening` is told when the feed gains its first listener or iterator (`true`) and
   * loses its last (`false`).
   */
  constructor(private readonly onListening?: (listening: boolean) => void) {}

  /** True while a listener or an iteration is subscribed. */
  get listening(): boolean {
    return this.listeners.size > 0
  }

  /** Calls `listener` for every change from now on; returns the unsubscribe function. */
  on(listener: ChangeListener): () => void {
    this.add(listener)
    return () => this.remove(listener)
  }

  private add(listener: ChangeListener): void {
    this.listeners.add(listener)
    if (this.listeners.size === 1) this.onListening?.(true)
  }

  private remove(listener: ChangeListener): boolean {
    const removed = this.listeners.delete(listener)
    if (removed && this.listeners.size === 0) this.onListening?.(false)
    return removed
  }

  emit(changes: readonly SequencedChange[]): void {
    for (const change of changes) {
      for (const listener of this.listeners) {
        try {
          listener(change)
        } catch (err) {
          queueMicrotask(() => {
            throw err
          })
        }
      }
    }
  }

  /** Ends every iteration; later `iterate()` calls end at once. */
  close(): void {
    this.closed = true
    for (const listener of this.listeners) if (isCloser(listener)) listener.end()
  }

  /** Changes from now on, as an async iterable. */
  async *iterate(options: ChangeIterationOptions = {}): AsyncGenerator<SequencedChange> {
    const limit = options.bufferSize ?? 10_000
    const buffer: SequencedChange[] = []
    let wake: (() => void) | undefined
    let ended = this.closed
    let overrun = false
    const listener = Object.assign(
      (change: SequencedChange) => {
        if (buffer.length >= limit) overrun = true
        else buffer.push(change)
        wake?.()
      },
      {
        end: () => {
          ended = true
          wake?.()
        },
      },
    )
    const onAbort = (): void => listener.end()
    options.signal?.addEventListener('abort', onAbort)
    if (options.signal?.aborted === true) ended = true
    this.add(listener)
    try {
      for (;;) {
        const next = buffer.shift()
        if (next !== undefined) {
          yield next
          continue
        }
        if (overrun) {
          throw new EngineError(
            'OVERRUN',
            `change feed consumer fell more than ${limit} changes behind; resubscribe and resynchronise`,
          )
        }
        if (ended) return
        await new Promise<void>((resolve) => (wake = resolve))
        wake = undefined
      }
    } finally {
      this.remove(listener)
      options.signal?.removeEventListener('abort', onAbort)
    }
  }
}

function isCloser(listener: ChangeListener): listener is ChangeListener & { end(): void } {
  return typeof (listener as { end?: unknown }).end === 'function'
}
