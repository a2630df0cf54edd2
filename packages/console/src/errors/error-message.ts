import { isClientError } from '@svcdb/client'

/** What to tell the user about `err`: the server's own message when it sent one. */
export function errorMessage(err: unknown): string {
  if (isClientError(err, 'NETWORK_ERROR')) return 'The server cannot be reached.'
  if (err instanceof Error && err.message !== '') return err.message
  return String(err)
}
