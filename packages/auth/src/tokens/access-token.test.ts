import { SignJWT, UnsecuredJWT, importJWK } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { isAuthError } from '../errors'
import { createAccessTokenCodec } from './access-token'
import type { AccessTokenCodec } from './access-token'
import { generateSigningKey } from './signing-key'
import type { SigningKeyRecord } from './signing-key'

const NOW = 1_700_000_000_000
let key: SigningKeyRecord
let codec: AccessTokenCodec

beforeAll(async () => {
  key = await generateSigningKey(NOW)
  codec = await createAccessTokenCodec(key, 3600)
})

const rejected = async (token: string, now = NOW) => {
  const err = await codec.verify(token, now).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(isAuthError(err, 'INVALID_CREDENTIAL')).toBe(true)
  expect((err as Error).message).toBe('invalid or expired access token')
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('access token', () => {
  it('carries sub, iss svc, iat, exp and key_id, with an EdDSA header naming the key', async () => {
    const { token, expiresIn } = await codec.mint({ subject: 'u1', keyId: 'k1', now: NOW })
    expect(expiresIn).toBe(3600)
    const [header] = token.split('.')
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toEqual({
      alg: 'EdDSA',
      kid: key.kid,
      typ: 'JWT',
    })
    expect(await codec.verify(token, NOW + 1000)).toEqual({
      sub: 'u1',
      iss: 'svc',
      iat: NOW / 1000,
      exp: NOW / 1000 + 3600,
      key_id: 'k1',
    })
  })

  it('passes the optional scope and permissions claims through', async () => {
    const { token } = await codec.mint({
      subject: 'u1',
      scope: 'read',
      permissions: { '/a': 'r' },
      now: NOW,
    })
    expect(await codec.verify(token, NOW)).toMatchObject({
      scope: 'read',
      permissions: { '/a': 'r' },
    })
  })

  it('rejects an unsigned token (alg none)', async () => {
    const unsecured = new UnsecuredJWT({ key_id: 'k1' })
      .setSubject('00000000-0000-0000-0000-000000000000')
      .setIssuer('svc')
      .setIssuedAt(NOW / 1000)
      .setExpirationTime(NOW / 1000 + 60)
      .encode()
    await rejected(unsecured)
  })

  it('rejects a token signed by another key, even one claiming the same kid', async () => {
    const other = await generateSigningKey(NOW)
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .setSubject('u1')
      .setIssuer('svc')
      .setIssuedAt(NOW / 1000)
      .setExpirationTime(NOW / 1000 + 60)
      .sign(await importJWK(other.privateJwk, 'EdDSA'))
    await rejected(token)
    const otherCodec = await createAccessTokenCodec(other, 60)
    await rejected((await otherCodec.mint({ subject: 'u1', now: NOW })).token)
  })

  it('rejects an HMAC token keyed with the public key (algorithm confusion)', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: key.kid })
      .setSubject('u1')
      .setIssuer('svc')
      .setIssuedAt(NOW / 1000)
      .setExpirationTime(NOW / 1000 + 60)
      .sign(new TextEncoder().encode(JSON.stringify(key.publicJwk)))
    await rejected(token)
  })

  it('rejects an expired token', async () => {
    const { token } = await codec.mint({ subject: 'u1', now: NOW })
    await expect(codec.verify(token, NOW + 3_599_000)).resolves.toMatchObject({ sub: 'u1' })
    await rejected(token, NOW + 3_600_000)
  })

  it('rejects a tampered payload or signature', async () => {
    const { token } = await codec.mint({ subject: 'u1', keyId: 'k1', now: NOW })
    const [header, , signature] = token.split('.')
    const forged = b64({
      sub: '00000000-0000-0000-0000-000000000000',
      iss: 'svc',
      iat: NOW / 1000,
      exp: NOW / 1000 + 3600,
    })
    await rejected(`${header}.${forged}.${signature}`)
    const flipped = `${signature?.startsWith('A') ? 'B' : 'A'}${signature?.slice(1)}`
    await rejected(`${token.split('.').slice(0, 2).join('.')}.${flipped}`)
    await rejected('not.a.token')
    await rejected('')
  })

  it('rejects a wrong issuer and missing required claims', async () => {
    const privateKey = await importJWK(key.privateJwk, 'EdDSA')
    const sign = (build: (jwt: SignJWT) => SignJWT) =>
      build(new SignJWT({ key_id: 'k1' }).setProtectedHeader({ alg: 'EdDSA', kid: key.kid })).sign(
        privateKey,
      )
    const complete = (jwt: SignJWT) =>
      jwt
        .setSubject('u1')
        .setIssuedAt(NOW / 1000)
        .setExpirationTime(NOW / 1000 + 60)
    await rejected(await sign((jwt) => complete(jwt).setIssuer('other')))
    await rejected(await sign((jwt) => complete(jwt)))
    await rejected(
      await sign((jwt) =>
        jwt
          .setIssuer('svc')
          .setIssuedAt(NOW / 1000)
          .setSubject('u1'),
      ),
    )
    await rejected(
      await sign((jwt) =>
        jwt
          .setIssuer('svc')
          .setExpirationTime(NOW / 1000 + 60)
          .setSubject('u'),
      ),
    )
    await rejected(
      await sign((jwt) =>
        jwt
          .setIssuer('svc')
          .setIssuedAt(NOW / 1000)
          .setExpirationTime(NOW / 1000 + 60),
      ),
    )
    const wrongType = await new SignJWT({ key_id: 42 })
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .setIssuer('svc')
      .setSubject('u1')
      .setIssuedAt(NOW / 1000)
      .setExpirationTime(NOW / 1000 + 60)
      .sign(privateKey)
    await rejected(wrongType)
  })
})
