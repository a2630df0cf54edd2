import { SignJWT, importJWK, jwtVerify } from 'jose'
import type { JWTHeaderParameters } from 'jose'
import { AuthError } from '../errors'
import { SIGNING_ALGORITHM } from './signing-key'
import type { SigningKeyRecord } from './signing-key'

/** The `iss` of every token (spec: the neutral form `svc`). */
export const TOKEN_ISSUER = 'svc'

/** The claims of an access token (spec "JWT claims"), in their wire names. */
export interface AccessTokenClaims {
  /** User id, or the key id for a share key (which has no user). */
  sub: string
  iss: typeof TOKEN_ISSUER
  /** Unix seconds. */
  iat: number
  /** Unix seconds. */
  exp: number
  scope?: string
  permissions?: Record<string, unknown>
  /** The API key the token descends from; its rules apply to every request made with it. */
  key_id?: string
}

/** What an access token is minted for. */
export interface MintTokenInput {
  subject: string
  keyId?: string
  scope?: string
  permissions?: Record<string, unknown>
  /** Unix milliseconds. */
  now: number
}

/** A minted token and its lifetime in seconds. */
export interface MintedToken {
  token: string
  expiresIn: number
}

/** Signs and verifies access tokens with one key. */
export interface AccessTokenCodec {
  /** @throws {AuthError} `TOKEN_CREATION_FAILED`. */
  mint(input: MintTokenInput): Promise<MintedToken>
  /**
   * Verifies signature, algorithm (EdDSA only), key id, issuer, the required claims
   * `sub`/`iat`/`exp` and expiry at `now` (Unix milliseconds).
   *
   * @throws {AuthError} `INVALID_CREDENTIAL`, with the same message whatever was wrong.
   */
  verify(token: string, now: number): Promise<AccessTokenClaims>
}

const INVALID_TOKEN = 'invalid or expired access token'

/** Builds the codec of `key`; tokens live `ttlSeconds`. */
/** Verified tokens remembered per codec (oldest forgotten first). */
const VERIFIED_TOKENS = 10_000

export async function createAccessTokenCodec(
  key: SigningKeyRecord,
  ttlSeconds: number,
): Promise<AccessTokenCodec> {
  const privateKey = await importJWK(key.privateJwk, SIGNING_ALGORITHM)
  const publicKey = await importJWK(key.publicJwk, SIGNING_ALGORITHM)
  const pickKey = (header: JWTHeaderParameters) => {
    if (header.kid !== key.kid) throw new Error('unknown kid')
    return publicKey
  }
  // Signature checks cost ~150 µs each (EdDSA); a client sends the same token for an hour,
  // so a token verified once is remembered until it expires. Revocation and deactivation
  // are checked per request elsewhere (through the identity cache), not here.
  const verified = new Map<string, AccessTokenClaims>()
  return {
    async mint(input) {
      const iat = Math.floor(input.now / 1000)
      const claims: Record<string, unknown> = {}
      if (input.scope !== undefined) claims.scope = input.scope
      if (input.permissions !== undefined) claims.permissions = input.permissions
      if (input.keyId !== undefined) claims.key_id = input.keyId
      try {
        const token = await new SignJWT(claims)
          .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: 'JWT' })
          .setSubject(input.subject)
          .setIssuer(TOKEN_ISSUER)
          .setIssuedAt(iat)
          .setExpirationTime(iat + ttlSeconds)
          .sign(privateKey)
        return { token, expiresIn: ttlSeconds }
      } catch (cause) {
        throw new AuthError('TOKEN_CREATION_FAILED', 'could not sign the access token', { cause })
      }
    },
    async verify(token, now) {
      const known = verified.get(token)
      if (known !== undefined) {
        if (now < known.exp * 1000) return known
        verified.delete(token)
      }
      try {
        const { payload } = await jwtVerify(token, pickKey, {
          algorithms: [SIGNING_ALGORITHM],
          issuer: TOKEN_ISSUER,
          requiredClaims: ['sub', 'iat', 'exp'],
          currentDate: new Date(now),
        })
        const { scope, permissions, key_id: keyId } = payload
        if (
          (scope !== undefined && typeof scope !== 'string') ||
          (keyId !== undefined && typeof keyId !== 'string') ||
          (permissions !== undefined &&
            (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions)))
        ) {
          throw new Error('malformed claims')
        }
        const claims = payload as unknown as AccessTokenClaims
        if (verified.size >= VERIFIED_TOKENS)
          verified.delete(verified.keys().next().value as string)
        verified.set(token, claims)
        return claims
      } catch (cause) {
        throw new AuthError('INVALID_CREDENTIAL', INVALID_TOKEN, { cause })
      }
    },
  }
}
