export { AuthError, isAuthError } from './errors'
export type { AuthErrorCode, AuthErrorOptions } from './errors'
