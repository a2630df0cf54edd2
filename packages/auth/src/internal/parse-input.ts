import * as v from 'valibot'
import { AuthError } from '../errors'

/**
 * Parses untrusted input with a valibot schema; the first issue becomes an `INVALID_INPUT`
 * error naming the field (`tags.2: …`).
 */
export function parseInput<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortEarly: true })
  if (result.success) return result.output
  const [issue] = result.issues
  const path = v.getDotPath(issue)
  throw new AuthError('INVALID_INPUT', path === null ? issue.message : `${path}: ${issue.message}`)
}
