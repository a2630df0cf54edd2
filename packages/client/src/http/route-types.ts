import type { AnySchema } from '@svcdb/contract'
import type * as v from 'valibot'

/** The JSON body a route accepts, as the caller writes it (the schema's input type). */
export type BodyOf<R> = R extends { request: { body: infer S extends AnySchema } }
  ? NonNullable<v.InferInput<S>>
  : never

/** Options every call takes. */
export interface CallOptions {
  /** Aborts the call; it then fails with `ClientError` code `ABORTED`. */
  signal?: AbortSignal
}
