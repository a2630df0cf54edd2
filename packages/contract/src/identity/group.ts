import * as v from 'valibot'

const millisSchema = v.pipe(v.number(), v.integer())

const groupFields = {
  name: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  /** Path glob of what members may access. */
  default_allow: v.string(),
  /** Path glob taken back from `default_allow` (deny wins). */
  default_deny: v.string(),
  /** A user field; one outside the server's safe list is refused with 400. */
  query_field: v.string(),
  query_operator: v.string(),
  query_value: v.string(),
}

/** A group as the API shows it (spec "Group"); timestamps in Unix milliseconds. */
export const groupSchema = v.strictObject({
  ...groupFields,
  created_at: millisSchema,
  updated_at: millisSchema,
})

/** A group as the API shows it. */
export type GroupView = v.InferOutput<typeof groupSchema>

/** `POST /system/groups`: all six fields, all strings, all required (spec). */
export const createGroupRequestSchema = v.strictObject(groupFields)

/** `PATCH /system/groups/{name}`: any of the group's fields (a group cannot be renamed). */
export const updateGroupRequestSchema = v.strictObject({
  name: v.optional(groupFields.name),
  default_allow: v.optional(groupFields.default_allow),
  default_deny: v.optional(groupFields.default_deny),
  query_field: v.optional(groupFields.query_field),
  query_operator: v.optional(groupFields.query_operator),
  query_value: v.optional(groupFields.query_value),
})

/** Path parameters of `/system/groups/{name}`. */
export const groupNameParamsSchema = v.object({ name: groupFields.name })

/** What `DELETE /system/groups/{name}` answers. */
export const deletedGroupSchema = v.strictObject({ deleted: v.boolean(), name: v.string() })
