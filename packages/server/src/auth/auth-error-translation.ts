import { isAuthError } from '@svcdb/auth'
import { ServerError } from '../errors/server-error'
import type { RouteHandler } from '../routing/route-handler'

/**
 * Adjusts an `AuthError` for the wire where the server's one mapping would not do:
 * `TOKEN_CREATION_FAILED` becomes `INTERNAL` (500, spec) with a message naming what failed,
 * and the messages of `INVALID_INPUT` and `UNSAFE_QUERY_FIELD` name fields as the wire does
 * (`expires_in_days`, not `expiresInDays`). Every other error is returned as it is: the
 * mapping already answers its code (401, 403, 404, 409, 429 with `Retry-After`).
 */
export function translateAuthError(err: unknown): unknown {
  if (isAuthError(err, 'TOKEN_CREATION_FAILED')) {
    return new ServerError('INTERNAL', 'could not create an access token', { cause: err })
  }
  if (isAuthError(err, 'INVALID_INPUT') || isAuthError(err, 'UNSAFE_QUERY_FIELD')) {
    return new ServerError('BAD_REQUEST', wireFieldNames(err.message), { cause: err })
  }
  return err
}

/** `handler`, with what it throws passed through {@link translateAuthError}. */
export function withAuthErrors(handler: RouteHandler): RouteHandler {
  return {
    route: handler.route,
    async handle(c, input) {
      try {
        return await handler.handle(c, input)
      } catch (err) {
        throw translateAuthError(err)
      }
    },
  }
}

// Auth's messages start with the field at fault, in camelCase: `queryField: "x" is not…`.
function wireFieldNames(message: string): string {
  return message.replace(/^[a-z][A-Za-z0-9]*(?=[:.[ ])/, (field) =>
    field.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`),
  )
}
