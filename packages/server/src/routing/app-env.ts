import type { Principal } from './principal'

/** The Hono environment of the app: what middleware leaves for handlers. */
export interface AppEnv {
  Variables: {
    /** The caller, set by the auth guard; absent on `none` routes without a credential. */
    principal: Principal | undefined
    /** Reports an error met after the answer's headers went out (health watches them). */
    reportError: ((err: unknown) => void) | undefined
    /** This request's id, answered in `X-Request-Id` and named in its log lines. */
    requestId: string
  }
}
