import { isClientError } from '@svcdb/client'
import { SessionsAppError } from './errors'

/**
 * Translates a failed svcdb call: unreachable is `UPSTREAM_UNAVAILABLE` (503), any other
 * answer `UPSTREAM_FAILED` (502) quoting svcdb's code, so the caller can tell the app's
 * problem from the database's. An aborted call and non-client errors pass through unchanged.
 */
export function upstreamError(err: unknown, doing: string): unknown {
  if (!isClientError(err) || err.code === 'ABORTED') return err
  if (err.code === 'NETWORK_ERROR')
    return new SessionsAppError('UPSTREAM_UNAVAILABLE', `svcdb is unreachable (${doing})`, {
      cause: err,
    })
  return new SessionsAppError(
    'UPSTREAM_FAILED',
    `svcdb answered ${err.status} ${err.code} (${doing}): ${err.message}`,
    { cause: err },
  )
}
