import type { AnySchema, RouteDef, ValidationIssue } from '@svcdb/contract'
import type { Context } from 'hono'
import * as v from 'valibot'
import { ServerError } from '../errors/server-error'
import type { AppEnv } from './app-env'
import { readJsonBody } from './json-body'

/**
 * Parses and validates the declared parts of a request. Any problem answers 400
 * `VALIDATION_FAILED` with one `details` entry per issue, located as `params.x`, `query.x`
 * or `body.x`.
 */
export async function validateInput(
  route: RouteDef,
  c: Context<AppEnv>,
): Promise<{ params: unknown; query: unknown; body: unknown }> {
  const request = route.request ?? {}
  const issues: ValidationIssue[] = []
  const params = await check('params', request.params, c.req.param(), issues)
  const query = await check('query', request.query, c.req.query(), issues)
  let body: unknown
  if (request.body !== undefined) {
    const json = await readJsonBody(c)
    // valibot's object schemas take arrays for objects (an array is an object); a JSON array
    // is never what an object body means.
    if (Array.isArray(json) && OBJECT_SCHEMAS.has(innermostType(request.body)))
      issues.push({ path: 'body', message: 'must be a JSON object, not an array' })
    else body = await check('body', request.body, json, issues)
  }
  if (issues.length > 0) {
    throw new ServerError(
      'VALIDATION_FAILED',
      `invalid request: ${issues[0]?.path} ${issues[0]?.message}`,
      {
        details: issues,
      },
    )
  }
  return { params, query, body }
}

const OBJECT_SCHEMAS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest'])

/** The type of a schema, looking through `optional`, `nullable` and `pipe` wrappers. */
function innermostType(schema: AnySchema): string {
  let current = schema as { type: string; wrapped?: AnySchema; pipe?: readonly AnySchema[] }
  for (;;) {
    if (current.wrapped !== undefined) current = current.wrapped as typeof current
    else if (current.type === 'pipe' || (current.pipe !== undefined && current.pipe.length > 0)) {
      const first = current.pipe?.[0] as typeof current | undefined
      if (first === undefined || first === current) return current.type
      current = first
    } else return current.type
  }
}

async function check(
  part: string,
  schema: AnySchema | undefined,
  value: unknown,
  issues: ValidationIssue[],
): Promise<unknown> {
  if (schema === undefined) return undefined
  const result = await v.safeParseAsync(schema, value)
  if (result.success) return result.output
  for (const issue of result.issues) {
    const key = v.getDotPath(issue)
    issues.push({ path: key === null ? part : `${part}.${key}`, message: issue.message })
  }
  return undefined
}
