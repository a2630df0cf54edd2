import * as v from 'valibot'

/** Health states: `ok`, or `degraded` when the server runs but something needs attention. */
export const healthStatusSchema = v.picklist(['ok', 'degraded'])

/** Schema of the `GET /system/health` answer: `{"status": "ok"|"degraded", "version": "<semver>"}`. */
export const healthResponseSchema = v.strictObject({
  status: healthStatusSchema,
  version: v.pipe(v.string(), v.minLength(1)),
})

/** The `GET /system/health` answer. */
export type HealthResponse = v.InferOutput<typeof healthResponseSchema>
