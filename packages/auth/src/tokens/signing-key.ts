import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose'
import type { JWK } from 'jose'
import { AuthError } from '../errors'

/** The algorithm of every access token: EdDSA over Ed25519. */
export const SIGNING_ALGORITHM = 'EdDSA'

/** The token-signing key pair as stored, in JWK form. */
export interface SigningKeyRecord {
  /** Key id (the RFC 7638 thumbprint of the public key), put in every token's header. */
  kid: string
  algorithm: typeof SIGNING_ALGORITHM
  /** Ed25519 private key (`kty: OKP`, `crv: Ed25519`, `x`, `d`). */
  privateJwk: JWK
  /** The public half (`x` only). */
  publicJwk: JWK
  createdAt: number
}

/**
 * Generates a fresh Ed25519 signing key.
 *
 * @throws {AuthError} `TOKEN_CREATION_FAILED` when the platform cannot generate it.
 */
export async function generateSigningKey(now: number): Promise<SigningKeyRecord> {
  try {
    const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, {
      crv: 'Ed25519',
      extractable: true,
    })
    const privateJwk = await exportJWK(privateKey)
    const { kty, crv, x } = privateJwk
    if (kty === undefined || crv === undefined || x === undefined) throw new Error('bad JWK')
    const publicJwk: JWK = { kty, crv, x }
    const kid = await calculateJwkThumbprint(publicJwk)
    return { kid, algorithm: SIGNING_ALGORITHM, privateJwk, publicJwk, createdAt: now }
  } catch (cause) {
    throw new AuthError('TOKEN_CREATION_FAILED', 'could not generate the signing key', { cause })
  }
}
