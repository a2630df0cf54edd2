import { isClientError } from '@svcdb/client'
import { errorMessage } from '../errors/error-message'

/**
 * What to tell the user when a move of HEAD (restore, promote) failed. A `CONFLICT` means
 * `expect_head` caught a HEAD that moved since the screen read it: nothing changed, and the
 * user should look at the new HEAD before trying again.
 */
export function moveErrorMessage(err: unknown): string {
  if (isClientError(err, 'CONFLICT'))
    return (
      `HEAD moved since this screen read it, so nothing was changed (${errorMessage(err)}). ` +
      'Refresh to see the current HEAD, then try again.'
    )
  return errorMessage(err)
}
