import type {
  CreateGroupInput,
  CreateKeyInput,
  CreateUserInput,
  UpdateGroupInput,
  UpdateUserInput,
} from '@svcdb/auth'
import type { routes } from '@svcdb/contract'
import type * as v from 'valibot'

type Body<R extends { request: { body: v.GenericSchema } }> = v.InferOutput<R['request']['body']>

/** `POST /auth/keys` body to auth's input; absent fields stay absent (auth applies defaults). */
export function createKeyInput(body: Body<typeof routes.authKeysCreate>): CreateKeyInput {
  const input: CreateKeyInput = {}
  if (body.label !== undefined) input.label = body.label
  if (body.expires_in_days !== undefined) input.expiresInDays = body.expires_in_days
  if (body.rules !== undefined) input.rules = body.rules
  if (body.user_id !== undefined) input.userId = body.user_id
  return input
}

/** `POST /system/users` body to auth's input. */
export function createUserInput(body: Body<typeof routes.usersCreate>): CreateUserInput {
  const input: CreateUserInput = { username: body.username }
  if (body.email !== undefined) input.email = body.email
  if (body.tags !== undefined) input.tags = body.tags
  return input
}

/** `PATCH /system/users/{user_id}` body to auth's input; `email: null` removes the address. */
export function updateUserInput(body: Body<typeof routes.usersUpdate>): UpdateUserInput {
  const input: UpdateUserInput = {}
  if (body.username !== undefined) input.username = body.username
  if (body.email !== undefined) input.email = body.email
  if (body.is_active !== undefined) input.isActive = body.is_active
  if (body.tags !== undefined) input.tags = body.tags
  return input
}

/** `POST /system/groups` body to auth's input. */
export function createGroupInput(body: Body<typeof routes.groupsCreate>): CreateGroupInput {
  return {
    name: body.name,
    defaultAllow: body.default_allow,
    defaultDeny: body.default_deny,
    queryField: body.query_field,
    queryOperator: body.query_operator,
    queryValue: body.query_value,
  }
}

/** `PATCH /system/groups/{name}` body to auth's input. */
export function updateGroupInput(body: Body<typeof routes.groupsUpdate>): UpdateGroupInput {
  const input: UpdateGroupInput = {}
  if (body.name !== undefined) input.name = body.name
  if (body.default_allow !== undefined) input.defaultAllow = body.default_allow
  if (body.default_deny !== undefined) input.defaultDeny = body.default_deny
  if (body.query_field !== undefined) input.queryField = body.query_field
  if (body.query_operator !== undefined) input.queryOperator = body.query_operator
  if (body.query_value !== undefined) input.queryValue = body.query_value
  return input
}
