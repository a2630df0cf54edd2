import { comparePositions } from '../change-log'
import type { ChangeEvent, ChangeLog, ChangePosition } from '../change-log'
import type { EventFilter } from '../event-filter'
import type { EventEnvelope } from '../event-types'
import type { ReplayCursor, ReplayPrelude } from '../subscription'

/** What a replay from the change log needs from its bus. */
export interface LogReplayOptions {
  log: ChangeLog
  /** The position of the `Last-Event-ID`: events after it are replayed. */
  after: ChangePosition
  /** The envelope of a replayed event (its id derived from its position). */
  envelope(event: ChangeEvent): EventEnvelope
  /** The `events_lost` notice when the log no longer holds the events. */
  lost(): EventEnvelope
  /** What follows once the log is read, given the last position it covered. */
  finish(floor: ChangePosition | undefined): ReplayCursor | EventEnvelope | undefined
}

/**
 * The first stage of a subscription resuming from a change event the buffer does not hold:
 * the change log's events after it, read lazily batch by batch, then the buffer. A failure of
 * the log is one `events_lost` (`expired`), then the live stream.
 */
export function createLogReplay(options: LogReplayOptions): ReplayPrelude {
  const abort = new AbortController()
  let iterator: AsyncIterator<ChangeEvent> | undefined
  let floor: ChangePosition | undefined
  let failed = false
  let done = false
  return {
    get floor() {
      return floor
    },
    async next(filter: EventFilter, max: number) {
      if (done) return undefined
      const out: EventEnvelope[] = []
      try {
        iterator ??= options.log.replay(options.after, abort.signal)[Symbol.asyncIterator]()
        // A batch is what the log hands over at once, bounded by `max`.
        while (out.length < Math.min(max, 256)) {
          const next = await iterator.next()
          if (next.done === true) {
            done = true
            break
          }
          const event = next.value
          // Not past the Last-Event-ID, or not after the previous one: already seen.
          if (comparePositions(event.position, options.after) <= 0) continue
          if (floor !== undefined && comparePositions(event.position, floor) <= 0) continue
          floor = event.position
          const delivered = filter(options.envelope(event))
          if (delivered !== undefined) out.push(delivered)
          if (out.length > 0 && out.length % 64 === 0) break
        }
      } catch {
        if (abort.signal.aborted) return undefined
        failed = true
        done = true
        return [options.lost()]
      }
      return out.length === 0 && done ? undefined : out
    },
    finish() {
      // After a loss the client resyncs: the live stream only.
      return failed ? undefined : options.finish(floor)
    },
    close() {
      done = true
      abort.abort()
      void iterator?.return?.()?.catch(() => undefined)
    },
  }
}
