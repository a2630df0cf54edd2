import * as v from 'valibot'
import { userIdParamsSchema } from '../identity/identity-ids'
import {
  createUserRequestSchema,
  deactivatedUserSchema,
  updateUserRequestSchema,
  userSchema,
} from '../identity/user'
import { defineRoute } from '../route'

/** Routes of /system/users (all root). */
export const userRoutes = {
  usersCreate: defineRoute({
    id: 'users.create',
    method: 'POST',
    path: '/system/users',
    auth: 'root',
    request: { body: createUserRequestSchema },
    response: userSchema,
    successStatus: 201,
  }),
  usersList: defineRoute({
    id: 'users.list',
    method: 'GET',
    path: '/system/users',
    auth: 'root',
    response: v.strictObject({ items: v.array(userSchema) }),
  }),
  usersGet: defineRoute({
    id: 'users.get',
    method: 'GET',
    path: '/system/users/{user_id}',
    auth: 'root',
    request: { params: userIdParamsSchema },
    response: userSchema,
  }),
  usersUpdate: defineRoute({
    id: 'users.update',
    method: 'PATCH',
    path: '/system/users/{user_id}',
    auth: 'root',
    request: { params: userIdParamsSchema, body: updateUserRequestSchema },
    response: userSchema,
  }),
  usersDeactivate: defineRoute({
    id: 'users.deactivate',
    method: 'DELETE',
    path: '/system/users/{user_id}',
    auth: 'root',
    request: { params: userIdParamsSchema },
    response: deactivatedUserSchema,
  }),
} as const
