import { errorBodySchema } from '@svcdb/contract'
import type { ErrorBody } from '@svcdb/contract'
import * as v from 'valibot'
import { expect } from 'vitest'

/** Checks an error answer's status and returns its body's error. */
export async function errorOf(res: Response, status: number): Promise<ErrorBody['error']> {
  expect(res.status).toBe(status)
  return v.parse(errorBodySchema, await res.json()).error
}

/** Checks an error answer's status and returns its code. */
export async function errorCode(res: Response, status: number): Promise<string> {
  return (await errorOf(res, status)).code
}

/**
 * Asserts `res` answers `status` with exactly `{"error": {"code", "message"}}` (plus
 * `details` for validation failures), as JSON, and, when given, `code`; returns the error.
 */
export async function expectError(
  res: Response,
  status: number,
  code?: string,
): Promise<ErrorBody['error']> {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  const body = v.parse(errorBodySchema, await res.json())
  if (code !== undefined) expect(body.error.code).toBe(code)
  return body.error
}
