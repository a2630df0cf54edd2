import { afterEach, beforeEach, describe } from 'vitest'
import type { IdentityStore } from '../store/identity-store'
import { changeCases } from './conformance-changes'
import { credentialCases } from './conformance-credentials'
import { directoryCases } from './conformance-directory'

/** How the conformance suite gets the store under test. */
export interface IdentityStoreFixture {
  /** A fresh, empty store; called before every test. */
  create(): IdentityStore | Promise<IdentityStore>
  /** Releases a store made by `create` (closes its database); called after every test. */
  destroy?(store: IdentityStore): void | Promise<void>
}

/**
 * Registers the vitest suite every {@link IdentityStore} implementation must pass: records
 * round-trip as copies, uniqueness conflicts, direct key lookup by prefix, revocation,
 * single-use consumption under 50 concurrent callers, refresh-family revocation, the signing
 * key written once, persisted rate limits, shares, expiry, a key created only when none
 * blocks it, and the change stamp.
 *
 * @example
 * runIdentityStoreConformance('memory', { create: () => createMemoryIdentityStore() })
 */
export function runIdentityStoreConformance(name: string, fixture: IdentityStoreFixture): void {
  describe(`IdentityStore conformance: ${name}`, () => {
    let store: IdentityStore | undefined
    beforeEach(async () => {
      store = await fixture.create()
    })
    afterEach(async () => {
      if (store !== undefined) await fixture.destroy?.(store)
      store = undefined
    })
    const current = () => {
      if (store === undefined) throw new Error('no store: create() has not run')
      return store
    }
    directoryCases(current)
    credentialCases(current)
    changeCases(current)
  })
}
