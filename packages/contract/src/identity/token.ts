import * as v from 'valibot'

/** `POST /auth/token`: the API key to exchange. A malformed key string is a 401, not a 400. */
export const tokenRequestSchema = v.strictObject({ api_key: v.string() })

/** `POST /auth/refresh`: the refresh token to rotate (single use). */
export const refreshRequestSchema = v.strictObject({ refresh_token: v.string() })

/** `POST /auth/magic-link`: the address to send a sign-in link to. */
export const magicLinkRequestSchema = v.strictObject({
  email: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
})

/** `GET /auth/magic-link/verify`: the single-use code from the link. */
export const magicLinkVerifyQuerySchema = v.object({
  code: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
})

/** Seconds an access token lives. */
const expiresInSchema = v.pipe(v.number(), v.integer(), v.minValue(1))

/** What `POST /auth/token` and `POST /auth/refresh` answer: a JWT and a new refresh token. */
export const tokenGrantSchema = v.strictObject({
  token: v.pipe(v.string(), v.minLength(1)),
  expires_in: expiresInSchema,
  refresh_token: v.pipe(v.string(), v.startsWith('rt_')),
})

/** A token grant as the API shows it. */
export type TokenGrantView = v.InferOutput<typeof tokenGrantSchema>

/** What `GET /auth/magic-link/verify` answers: a JWT only, no refresh token (spec). */
export const accessGrantSchema = v.strictObject({
  token: v.pipe(v.string(), v.minLength(1)),
  expires_in: expiresInSchema,
})

/** A magic-link access grant as the API shows it. */
export type AccessGrantView = v.InferOutput<typeof accessGrantSchema>

/** What `POST /auth/magic-link` answers, the same whether or not the account exists. */
export const magicLinkResponseSchema = v.strictObject({ message: v.string() })
