import { isClientError } from '@svcdb/client'
import { errorMessage } from '../errors/error-message'

/** What the sign-in screen says of a magic link the server refused. */
export const REFUSED_MAGIC_LINK =
  'This sign-in link is invalid, expired or already used. Ask for a new one, or sign in with an API key.'

/**
 * What to tell someone whose magic link did not sign them in: a refused or malformed code (the
 * usual case: a link opened twice) gets one plain sentence; anything else (the server cannot
 * be reached…) its own message.
 */
export function magicLinkFailure(err: unknown): string {
  if (isClientError(err, 'UNAUTHORIZED') || isClientError(err, 'VALIDATION_FAILED'))
    return REFUSED_MAGIC_LINK
  return errorMessage(err)
}
