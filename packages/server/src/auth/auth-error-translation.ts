/**
 * Formerly a second error translation around the identity routes. The one mapping
 * (`errors/error-response.ts` with `errors/library-codes.ts`) now answers auth errors itself,
 * so this returns `err` unchanged.
 *
 * @deprecated Kept only for `auth-error-translation.test.ts`; delete both together.
 */
export function translateAuthError(err: unknown): unknown {
  return err
}
