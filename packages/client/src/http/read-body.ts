import { ClientError } from '../errors'
import { abortError } from './abort'

/**
 * Reads an answer's body with `read` (`r => r.text()`, `r => r.arrayBuffer()`…). The call can
 * still fail after the headers arrived, and it must fail the same way as before them: `ABORTED`
 * when the caller's signal fired, `NETWORK_ERROR` when the connection was cut, never the
 * runtime's own `AbortError` or `TypeError`.
 */
export async function readBody<T>(
  response: Response,
  read: (response: Response) => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  try {
    return await read(response)
  } catch (err) {
    if (signal?.aborted === true) throw abortError(signal)
    throw new ClientError('NETWORK_ERROR', `the answer was cut off: ${String(err)}`, {
      status: response.status,
      cause: err,
    })
  }
}
