import * as v from 'valibot'
import { errorCodeSchema } from './error-codes'

/** One problem found while validating a request, as listed in `error.details`. */
export const validationIssueSchema = v.object({
  /** Dotted location of the offending value (`body.username`, `query.limit`), or `""` for the whole input. */
  path: v.string(),
  message: v.string(),
})

/** A validation problem, as sent in `error.details`. */
export type ValidationIssue = v.InferOutput<typeof validationIssueSchema>

/**
 * The body of every 4xx and 5xx answer: `{"error": {"code", "message", "details"?}}`.
 * `details` is present only for `VALIDATION_FAILED`.
 */
export const errorBodySchema = v.strictObject({
  error: v.strictObject({
    code: errorCodeSchema,
    message: v.pipe(v.string(), v.minLength(1)),
    details: v.optional(v.array(validationIssueSchema)),
  }),
})

/** The JSON body of an error answer. */
export type ErrorBody = v.InferOutput<typeof errorBodySchema>
