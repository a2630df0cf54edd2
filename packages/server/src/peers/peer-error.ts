/**
 * Why a sync with a peer failed, as `GET /system/peers` shows it: the peer's own error code
 * when it answered one (`FORBIDDEN`, `NOT_FOUND`…), `UNREACHABLE` when no answer came,
 * `INVALID_ARCHIVE` and the like when what it sent failed verification here.
 */
export class PeerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The HTTP status the peer answered, when it did. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'PeerError'
  }
}

/** The code and message of any failure of a sync round (engine and server errors carry a code). */
export function describeFailure(err: unknown): { code: string; message: string } {
  const code = (err as { code?: unknown } | undefined)?.code
  const message = err instanceof Error ? err.message : String(err)
  return { code: typeof code === 'string' ? code : 'INTERNAL', message }
}
