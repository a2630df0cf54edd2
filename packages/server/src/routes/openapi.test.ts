import { compileErrors, validate } from '@readme/openapi-parser'
import { routes } from '@svcdb/contract'
import type { RouteDef } from '@svcdb/contract'
import { describe, expect, it } from 'vitest'
import { createApp } from '../app'
import { createLogger } from '../logger'
import { disabledAuthenticator } from '../routing/principal'

type Operation = {
  operationId: string
  security: unknown[]
  parameters: { name: string; in: string; required: boolean }[]
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> }
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> }

async function fetchDocument(): Promise<{ res: Response; doc: Document }> {
  const app = createApp({
    authenticator: disabledAuthenticator,
    logger: createLogger({ level: 'silent' }),
    version: '1.2.3',
  })
  const res = await app.request('/openapi.json')
  return { res, doc: (await res.clone().json()) as Document }
}

describe('GET /openapi.json', () => {
  it('answers without a credential a document an OpenAPI 3.1 parser accepts', async () => {
    const { res, doc } = await fetchDocument()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(doc.openapi).toBe('3.1.0')
    const result = await validate(structuredClone(doc) as never)
    if (!result.valid) throw new Error(compileErrors(result))
    expect(result.valid).toBe(true)
  })

  it('covers every route of the table exactly once, with its auth', async () => {
    const { doc } = await fetchDocument()
    const table = Object.values(routes) as RouteDef[]
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods))
    expect(operations.map((o) => o.operationId).sort()).toEqual(table.map((r) => r.id).sort())
    for (const route of table) {
      const path = route.path.replaceAll(/\{(\w+)\*\}/g, '{$1}')
      const op = doc.paths[path]?.[route.method.toLowerCase()]
      expect(op?.operationId).toBe(route.id)
      expect(op?.security).toEqual(route.auth === 'none' ? [] : [{ bearer: [] }])
    }
  })

  it('describes parameters, JSON bodies, byte bodies and errors from the schemas', async () => {
    const { doc } = await fetchDocument()
    const write = doc.paths['/files/{path}']?.put as Operation
    expect(write.parameters).toContainEqual(
      expect.objectContaining({ name: 'path', in: 'path', required: true }),
    )
    expect(write.parameters).toContainEqual(
      expect.objectContaining({ name: 'fork', in: 'query', required: false }),
    )
    expect(Object.keys(write.requestBody?.content ?? {})).toEqual(['*/*'])
    expect(write.responses['200']?.content?.['application/json']?.schema).toMatchObject({
      type: 'object',
    })
    const token = doc.paths['/auth/token']?.post as Operation
    expect(token.requestBody?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      required: ['api_key'],
    })
    expect(token.responses.default?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Error',
    })
    const mkdir = doc.paths['/files/mkdir']?.post as Operation
    expect(Object.keys(mkdir.responses)).toContain('201')
    // An export may name chunks to leave out; an import must send its archive.
    const diff = doc.paths['/versions/diff']?.post as Operation
    expect(diff.requestBody).toMatchObject({ required: false })
    const load = doc.paths['/versions/import']?.post as Operation
    expect(load.requestBody).toMatchObject({ required: true })
    const metrics = doc.paths['/system/metrics']?.get as Operation
    expect(Object.keys(metrics.responses['200']?.content ?? {})).toEqual(['text/plain'])
  })
})
