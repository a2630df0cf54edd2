import * as v from 'valibot'

/**
 * A JSON object: not null and not an array. valibot's `object` and `record` schemas let arrays
 * through (an array is an object to `typeof`), so bodies and payloads are checked with this
 * first.
 */
export const jsonObjectSchema = v.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'Invalid type: Expected a JSON object',
)
