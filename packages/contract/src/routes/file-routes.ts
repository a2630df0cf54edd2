import * as v from 'valibot'
import {
  changeResultSchema,
  deleteQuerySchema,
  filePathParamsSchema,
  forkQuerySchema,
  readQuerySchema,
  writeResultSchema,
} from '../files'
import { queryBodySchema, queryResultSchema } from '../query'
import { defineRoute } from '../route'

const pathString = v.pipe(v.string(), v.minLength(1), v.maxLength(4096))

/** Routes of /files/* and /links/* (DESIGN §7.1). File bodies stream; they are not JSON. */
export const fileRoutes = {
  filesWrite: defineRoute({
    id: 'files.write',
    method: 'PUT',
    path: '/files/{path*}',
    auth: 'token',
    request: { params: filePathParamsSchema, query: forkQuerySchema },
    response: writeResultSchema,
    requestMediaType: '*/*',
  }),
  filesRead: defineRoute({
    id: 'files.read',
    method: 'GET',
    path: '/files/{path*}',
    auth: 'token',
    request: { params: filePathParamsSchema, query: readQuerySchema },
    responseMediaType: '*/*',
  }),
  filesHead: defineRoute({
    id: 'files.head',
    method: 'HEAD',
    path: '/files/{path*}',
    auth: 'token',
    request: { params: filePathParamsSchema, query: readQuerySchema },
  }),
  filesDelete: defineRoute({
    id: 'files.delete',
    method: 'DELETE',
    path: '/files/{path*}',
    auth: 'token',
    request: { params: filePathParamsSchema, query: deleteQuerySchema },
    response: v.object({ deleted: v.literal(true), path: v.string(), entry_type: v.string() }),
  }),
  filesMkdir: defineRoute({
    id: 'files.mkdir',
    method: 'POST',
    path: '/files/mkdir',
    auth: 'token',
    request: { query: forkQuerySchema, body: v.object({ path: pathString }) },
    response: changeResultSchema,
    successStatus: 201,
  }),
  filesQuery: defineRoute({
    id: 'files.query',
    method: 'POST',
    path: '/files/query',
    auth: 'token',
    request: { body: queryBodySchema },
    response: queryResultSchema,
  }),
  filesMove: defineRoute({
    id: 'files.move',
    method: 'POST',
    path: '/files/move',
    auth: 'token',
    request: { query: forkQuerySchema, body: v.object({ from: pathString, to: pathString }) },
    response: changeResultSchema,
  }),
  filesCopy: defineRoute({
    id: 'files.copy',
    method: 'POST',
    path: '/files/copy',
    auth: 'token',
    request: {
      query: forkQuerySchema,
      body: v.object({
        paths: v.pipe(v.array(pathString), v.minLength(1), v.maxLength(1000)),
        destination: pathString,
      }),
    },
    response: v.object({ items: v.array(changeResultSchema), version: v.string() }),
  }),
  linksWrite: defineRoute({
    id: 'links.write',
    method: 'PUT',
    path: '/links/{path*}',
    auth: 'token',
    request: {
      params: filePathParamsSchema,
      query: forkQuerySchema,
      body: v.object({ target: pathString }),
    },
    response: changeResultSchema,
  }),
} as const
