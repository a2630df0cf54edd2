import type { Auth, AuthOptions } from '../auth'
import { createAuth } from '../create-auth'
import type { MagicLinkMessage } from '../magic-links/magic-link-sender'
import type { Principal } from '../principal'
import { createMemoryIdentityStore } from '../store/memory-identity-store'
import type { IdentityStore } from '../store/identity-store'
import { createManualClock } from './manual-clock'
import type { ManualClock } from './manual-clock'

/** A bootstrapped `Auth` on a memory store and a manual clock, for tests. */
export interface AuthHarness {
  auth: Auth
  store: IdentityStore
  clock: ManualClock
  /** Every magic link delivered, oldest first. */
  links: MagicLinkMessage[]
  /** The bootstrap root key. */
  rootKey: string
  /** Exchanges `apiKey` and authenticates the token: the principal a request would carry. */
  signIn(apiKey: string): Promise<Principal>
}

/** Options of {@link createAuthHarness}: the auth's, plus where its manual clock starts. */
export interface AuthHarnessOptions extends Partial<AuthOptions> {
  /** Unix ms the harness's clock starts at (default: a fixed moment of 2023). */
  startAt?: number
}

/**
 * Builds an {@link AuthHarness}; `options` override the defaults (a memory store, a manual
 * clock, a sender that records links). In `disabled` mode there is no root key (`rootKey` is
 * empty).
 *
 * @example
 * const { auth, rootKey, signIn } = await createAuthHarness()
 * const root = await signIn(rootKey)
 */
export async function createAuthHarness(
  harnessOptions: AuthHarnessOptions = {},
): Promise<AuthHarness> {
  const { startAt, ...options } = harnessOptions
  const clock = createManualClock(startAt)
  const store = options.store ?? createMemoryIdentityStore()
  const links: MagicLinkMessage[] = []
  const auth = createAuth({
    clock,
    magicLinkSender: {
      send(message) {
        links.push(message)
        return Promise.resolve()
      },
    },
    ...options,
    store,
  })
  const { rootApiKey } = await auth.bootstrap()
  if (rootApiKey === undefined && auth.mode.kind !== 'disabled')
    throw new Error('the harness store already had a root key')
  return {
    auth,
    store,
    clock,
    links,
    rootKey: rootApiKey ?? '',
    async signIn(apiKey) {
      const { token } = await auth.exchangeApiKey(apiKey)
      return auth.authenticate(token)
    },
  }
}
