import * as v from 'valibot'

/** A boolean query parameter: `true`/`false` (or `1`/`0`), `false` when absent. */
export const booleanQuerySchema = v.optional(
  v.pipe(
    v.picklist(['true', 'false', '1', '0'], 'expected true or false'),
    v.transform((value) => value === 'true' || value === '1'),
  ),
  'false',
)

/** A 64-digit hex version hash. */
export const versionHashSchema = v.pipe(
  v.string(),
  v.regex(/^[0-9a-fA-F]{64}$/, 'expected a 64-digit hex hash'),
)
