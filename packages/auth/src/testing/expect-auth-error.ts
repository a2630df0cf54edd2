import { expect } from 'vitest'
import { isAuthError } from '../errors'
import type { AuthErrorCode } from '../errors'

/** Asserts that `promise` rejects with an `AuthError` of `code`, and returns that error. */
export async function expectAuthError(
  promise: Promise<unknown>,
  code: AuthErrorCode,
): Promise<Error> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(isAuthError(err, code), `expected AuthError ${code}, got ${String(err)}`).toBe(true)
  return err as Error
}
