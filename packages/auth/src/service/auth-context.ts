import type { Clock } from '../clock'
import { AuthError } from '../errors'
import { randomUuid } from '../internal/uuid'
import type { RandomSource } from '../random-source'
import type { IdentityStore } from '../store/identity-store'
import { createAccessTokenCodec } from '../tokens/access-token'
import type { AccessTokenCodec } from '../tokens/access-token'
import { generateSigningKey } from '../tokens/signing-key'
import { createIdentityCache } from './identity-cache'
import type { IdentityCache } from './identity-cache'

/** What every service of one `Auth` shares. */
export interface AuthContext {
  store: IdentityStore
  clock: Clock
  cache: IdentityCache
  /** The token codec over the stored signing key, generated and stored on first use. */
  codec(): Promise<AccessTokenCodec>
  /** 32 fresh random bytes. */
  secretBytes(): Uint8Array
  /** A fresh random UUID. */
  newId(): string
}

/** Settings of {@link createAuthContext}. */
export interface AuthContextSettings {
  store: IdentityStore
  clock: Clock
  random: RandomSource
  accessTokenTtlSeconds: number
  cacheTtlMs: number
}

/** Builds the shared context of the services. */
export function createAuthContext(settings: AuthContextSettings): AuthContext {
  const { store, clock, random } = settings
  let codec: Promise<AccessTokenCodec> | undefined
  const loadCodec = async () => {
    const key =
      (await store.getSigningKey()) ??
      (await store.putSigningKeyIfAbsent(await generateSigningKey(clock.now())))
    return createAccessTokenCodec(key, settings.accessTokenTtlSeconds)
  }
  return {
    store,
    clock,
    cache: createIdentityCache(store, () => clock.now(), settings.cacheTtlMs),
    codec() {
      codec ??= loadCodec().catch((cause: unknown) => {
        codec = undefined
        throw new AuthError('TOKEN_CREATION_FAILED', 'the signing key is unavailable', { cause })
      })
      return codec
    },
    secretBytes() {
      const bytes = random.bytes(32)
      if (bytes.length !== 32) throw new RangeError('the random source returned the wrong length')
      return bytes
    },
    newId: () => randomUuid(random),
  }
}
