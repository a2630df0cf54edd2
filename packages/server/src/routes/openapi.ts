import { routes } from '@svcdb/contract'
import { openApiDocument } from '../openapi/openapi-document'
import { handleRoute } from '../routing/route-handler'

/**
 * `GET /openapi.json`: no credential, the OpenAPI 3.1 document of every route, generated from
 * the route table once, on first request.
 */
export function openApiRoute(version: string) {
  let document: string | undefined
  return handleRoute(routes.systemOpenApi, (c) => {
    document ??= JSON.stringify(openApiDocument(version))
    return c.body(document, 200, { 'content-type': 'application/json' })
  })
}
