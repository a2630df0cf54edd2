import { errorBodySchema, routes } from '@svcdb/contract'
import type { AnySchema, RouteDef } from '@svcdb/contract'
import { toJsonSchema } from '@valibot/to-json-schema'
import type { ConversionConfig, JsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'

/** An OpenAPI 3.1 document, as JSON. */
export type OpenApiDocument = Record<string, unknown>

type Parameter = Record<string, unknown>

// Query strings and path segments are text before validation turns them into values.
const REQUEST: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'input',
  errorMode: 'ignore',
}
const RESPONSE: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'output',
  errorMode: 'ignore',
}

const AUTH_NOTE: Record<RouteDef['auth'], string> = {
  none: 'No credential needed.',
  token: 'Needs a bearer credential (an access token or an API key); path permissions apply.',
  root: 'Needs the root user with an unrestricted credential; anyone else is refused with 403.',
}

/**
 * The OpenAPI 3.1 document of the API, generated from the contract's route table: one
 * operation per route (its `id` as `operationId`), path and query parameters and JSON bodies
 * from the route's valibot schemas, byte bodies from its media types, the bearer scheme for
 * every route that needs a credential, and the error body for every failure.
 *
 * @example
 * const doc = openApiDocument('0.1.0')
 * doc.paths['/system/health'].get.operationId // 'system.health'
 */
export function openApiDocument(version: string): OpenApiDocument {
  const schemas: Record<string, unknown> = {}
  const convert = converter(schemas)
  schemas.Error = convert(errorBodySchema, RESPONSE)
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of Object.values(routes) as RouteDef[]) {
    const path = openApiPath(route.path)
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = operation(route, convert)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svcdb',
      version,
      description:
        'A versioned, content-addressed file database served over HTTP. Generated from the route table of @svcdb/contract.',
    },
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An access token from POST /auth/token (a JWT), or an API key (svc_…) given directly.',
        },
      },
      schemas,
    },
  }
}

/** `/files/{path*}` → `/files/{path}`: OpenAPI has no multi-segment parameter. */
function openApiPath(path: string): string {
  return path.replaceAll(/\{(\w+)\*\}/g, '{$1}')
}

type Convert = ReturnType<typeof converter>

function operation(route: RouteDef, convert: Convert): Record<string, unknown> {
  const success = String(route.successStatus ?? 200)
  const op: Record<string, unknown> = {
    operationId: route.id,
    summary: route.id,
    description: AUTH_NOTE[route.auth],
    'x-svcdb-auth': route.auth,
    security: route.auth === 'none' ? [] : [{ bearer: [] }],
    parameters: [
      ...parameters(convert, route.request?.params, 'path', route.path),
      ...parameters(convert, route.request?.query, 'query', route.path),
    ],
    responses: {
      [success]: successResponse(route, convert),
      default: {
        description: 'An error: {"error": {"code", "message"}}',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  }
  const body = requestBody(route, convert)
  if (body !== undefined) op.requestBody = body
  return op
}

function parameters(
  convert: Convert,
  schema: AnySchema | undefined,
  where: 'path' | 'query',
  path: string,
) {
  if (schema === undefined) return []
  const json = convert(schema, REQUEST) as {
    properties?: Record<string, JsonSchema>
    required?: string[]
  }
  const required = new Set(json.required ?? [])
  return Object.entries(json.properties ?? {}).map(([name, property]): Parameter => {
    const parameter: Parameter = {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      schema: property,
    }
    if (where === 'path' && path.includes(`{${name}*}`))
      parameter.description = 'The rest of the path, slashes included.'
    return parameter
  })
}

function requestBody(route: RouteDef, convert: Convert): Record<string, unknown> | undefined {
  if (route.request?.body !== undefined)
    return {
      required: true,
      content: { 'application/json': { schema: convert(route.request.body, REQUEST) } },
    }
  if (route.requestMediaType !== undefined)
    return {
      required: route.requestBodyOptional !== true,
      content: { [route.requestMediaType]: { schema: { type: 'string', format: 'binary' } } },
    }
  return undefined
}

function successResponse(route: RouteDef, convert: Convert): Record<string, unknown> {
  if (route.response !== undefined)
    return {
      description: 'Success',
      content: { 'application/json': { schema: convert(route.response, RESPONSE) } },
    }
  if (route.responseMediaType !== undefined)
    return {
      description: 'Success: the body is bytes or a stream',
      content: { [route.responseMediaType]: { schema: { type: 'string', format: 'binary' } } },
    }
  return { description: 'Success, no body' }
}

/**
 * Converts one valibot schema (the route table's are all synchronous; only their structure is
 * read). Recursive schemas come with `$defs` of their own, referenced from the schema's root:
 * they move to `components.schemas` under names unique in the document, their references
 * rewritten to match.
 */
function converter(components: Record<string, unknown>) {
  let next = 0
  return (schema: AnySchema, config: ConversionConfig): JsonSchema => {
    const json = toJsonSchema(schema as v.GenericSchema, config) as Record<string, unknown>
    delete json.$schema
    const defs = json.$defs as Record<string, unknown> | undefined
    if (defs === undefined) return json
    delete json.$defs
    const renamed = new Map<string, string>()
    for (const name of Object.keys(defs)) renamed.set(`#/$defs/${name}`, `Schema${next++}`)
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite)
      if (value === null || typeof value !== 'object') return value
      const out: Record<string, unknown> = {}
      for (const [key, inner] of Object.entries(value)) {
        const target = key === '$ref' && typeof inner === 'string' ? renamed.get(inner) : undefined
        out[key] = target === undefined ? rewrite(inner) : `#/components/schemas/${target}`
      }
      return out
    }
    for (const [name, def] of Object.entries(defs))
      components[renamed.get(`#/$defs/${name}`) as string] = rewrite(def)
    return rewrite(json) as JsonSchema
  }
}
