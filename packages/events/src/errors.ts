/** Why an events operation failed. */
export type EventsErrorCode =
  /** An `events` filter names a type that does not exist. */
  | 'INVALID_EVENT_TYPE'
  /** A webhook configuration file does not validate. */
  | 'INVALID_WEBHOOK_CONFIG'
  /** A webhook destination is not on the allow-list. */
  | 'DESTINATION_NOT_ALLOWED'
  /** A webhook delivery failed for good (attempts exhausted) or could not be attempted. */
  | 'WEBHOOK_DELIVERY_FAILED'
  /** The stats provider of the metrics pulse failed. */
  | 'METRICS_UNAVAILABLE'
  /** A channel name is empty, too long or has control characters. */
  | 'INVALID_CHANNEL'
  /** The bus (or channel hub, or dispatcher) was closed. */
  | 'CLOSED'

/** Options of an {@link EventsError}. */
export interface EventsErrorOptions {
  cause?: unknown
}

/** Every failure of the events library. Match on `code` with {@link isEventsError}. */
export class EventsError extends Error {
  override readonly name = 'EventsError'
  readonly code: EventsErrorCode

  constructor(code: EventsErrorCode, message: string, options: EventsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
  }
}

/** True when `err` is an {@link EventsError}, optionally with the given code. */
export function isEventsError(err: unknown, code?: EventsErrorCode): err is EventsError {
  if (typeof err !== 'object' || err === null) return false
  const e = err as { name?: unknown; code?: unknown }
  return (
    e.name === 'EventsError' &&
    typeof e.code === 'string' &&
    (code === undefined || e.code === code)
  )
}
