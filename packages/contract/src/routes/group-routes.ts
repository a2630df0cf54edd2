import * as v from 'valibot'
import {
  createGroupRequestSchema,
  deletedGroupSchema,
  groupNameParamsSchema,
  groupSchema,
  updateGroupRequestSchema,
} from '../identity/group'
import { defineRoute } from '../route'

/** Routes of /system/groups (all root). */
export const groupRoutes = {
  groupsCreate: defineRoute({
    id: 'groups.create',
    method: 'POST',
    path: '/system/groups',
    auth: 'root',
    request: { body: createGroupRequestSchema },
    response: groupSchema,
    successStatus: 201,
  }),
  groupsList: defineRoute({
    id: 'groups.list',
    method: 'GET',
    path: '/system/groups',
    auth: 'root',
    response: v.strictObject({ items: v.array(groupSchema) }),
  }),
  groupsGet: defineRoute({
    id: 'groups.get',
    method: 'GET',
    path: '/system/groups/{name}',
    auth: 'root',
    request: { params: groupNameParamsSchema },
    response: groupSchema,
  }),
  groupsUpdate: defineRoute({
    id: 'groups.update',
    method: 'PATCH',
    path: '/system/groups/{name}',
    auth: 'root',
    request: { params: groupNameParamsSchema, body: updateGroupRequestSchema },
    response: groupSchema,
  }),
  groupsDelete: defineRoute({
    id: 'groups.delete',
    method: 'DELETE',
    path: '/system/groups/{name}',
    auth: 'root',
    request: { params: groupNameParamsSchema },
    response: deletedGroupSchema,
  }),
} as const
