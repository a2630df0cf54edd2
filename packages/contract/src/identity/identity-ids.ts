import * as v from 'valibot'

/** A UUID in its textual form, either case; the nil UUID (the root user) included. */
export const uuidSchema = v.pipe(v.string(), v.uuid('must be a UUID'))

/** Path parameters of `/system/users/{user_id}`: 400 for anything but a UUID (spec). */
export const userIdParamsSchema = v.object({ user_id: uuidSchema })

/**
 * Path parameters of `/auth/keys/{key_id}` and `/auth/keys/admin/{key_id}`: a key id is a
 * UUID, so anything else is an invalid key ID format (400, spec).
 */
export const keyIdParamsSchema = v.object({ key_id: uuidSchema })
