import type { Context } from 'hono'
import * as v from 'valibot'
import { SessionsAppError } from './errors'
import type { ValidationIssue } from './errors'

/** Which part of a request a value came from; issues are located under it (`body.title`). */
export type InputPart = 'body' | 'query' | 'params'

/**
 * Validates one part of a request. Any problem throws `VALIDATION_FAILED` with one `details`
 * entry per issue.
 */
export function parseInput<S extends v.GenericSchema>(
  part: InputPart,
  schema: S,
  value: unknown,
): v.InferOutput<S> {
  const result = v.safeParse(schema, value)
  if (result.success) return result.output
  const details: ValidationIssue[] = result.issues.map((issue) => {
    const key = v.getDotPath(issue)
    return { path: key === null ? part : `${part}.${key}`, message: issue.message }
  })
  const first = details[0] as ValidationIssue
  throw new SessionsAppError(
    'VALIDATION_FAILED',
    `invalid request: ${first.path} ${first.message}`,
    {
      details,
    },
  )
}

/**
 * The request body as JSON: undefined when empty (the schema then says what was expected),
 * `BAD_REQUEST` when it does not parse. Its size is bounded by the route's body limit.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text()
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new SessionsAppError('BAD_REQUEST', 'the request body is not valid JSON')
  }
}
