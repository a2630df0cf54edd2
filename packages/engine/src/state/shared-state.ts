import type { MetaGuard, MetaOp, MetaStore } from '../meta/meta-store'
import { createFreshRuns } from './fresh-runs'
import { readCommitToken, sealWithToken } from './commit-token'
import { readVersionState } from './database-state'
import type { StoredVersionState } from './database-state'

/** The refresh of a shared database, as the services that read refs see it. */
export interface Refresher {
  /** Makes the state in memory at least as new as the store was when called. */
  refresh(): Promise<void>
}

/** What keeping a shared database's state current needs from the core. */
export interface SharedStateDeps {
  meta: MetaStore
  /**
   * Reads what else a reloaded state needs (HEAD's totals, whether indexes are in use) and
   * returns the synchronous step that installs it all, state included.
   */
  prepare(stored: StoredVersionState): Promise<() => void>
}

/** Reads of a state before one gives up on a consistent one (each is token, state, token). */
export const CONSISTENT_READ_ATTEMPTS = 20

/**
 * The commit token of a database shared by several processes, and the reload of its version
 * state. The state in memory is the state of token {@link SharedState.token}: a commit group
 * formed on it expects that token in its batch (a compare-and-set) and raises it, so a group
 * formed on a state another node has moved since fails with `CONFLICT` instead of losing that
 * node's update. Reloads are single-flight and only ever install a newer state.
 */
export class SharedState implements Refresher {
  #token: number
  readonly #reload = createFreshRuns(() => this.load())
  readonly #readToken = createFreshRuns(() => readCommitToken(this.deps.meta))

  constructor(
    private readonly deps: SharedStateDeps,
    token: number,
  ) {
    this.#token = token
  }

  /** The token of the state in memory. */
  get token(): number {
    return this.#token
  }

  /** The guard and token op of a batch of a group formed on the state of token `basis`. */
  seal(basis: number): { guards: MetaGuard[]; ops: MetaOp[] } {
    return sealWithToken(basis)
  }

  /**
   * A local batch formed on `basis` committed. True when the state in memory is still that
   * basis: the group's moves are to be applied to it. False when a reload already installed a
   * newer state, which holds them (any token past `basis` was written after this batch).
   */
  committed(basis: number): boolean {
    if (this.#token !== basis) return false
    this.#token = basis + 1
    return true
  }

  /**
   * Makes the state in memory at least as new as the store was when this was called: one read
   * of the token, and a reload when another node committed since.
   */
  async refresh(): Promise<void> {
    // Concurrent refreshes (every request of a server node makes one) share token reads.
    const token = await this.#readToken()
    if (token > this.#token) await this.reload()
  }

  /**
   * Reloads the state when the store holds a newer one. Calls share a reload that has not
   * started reading yet; one already reading may have read too early, so a call arriving then
   * waits for it and shares the next.
   */
  reload(): Promise<void> {
    return this.#reload()
  }

  /**
   * Token, state, token: when both tokens agree, no batch committed in between, so the state
   * read is exactly that token's (every batch that changes it raises the token). After many
   * disagreements it installs what it read under the first token: a mix, newer than that
   * token, which the next guarded batch finds out (its guard fails) and reloads.
   */
  private async load(): Promise<void> {
    const { meta } = this.deps
    for (let attempt = 1; ; attempt++) {
      const before = await readCommitToken(meta)
      if (before <= this.#token) return
      const install = await this.deps.prepare(await readVersionState(meta))
      const after = await readCommitToken(meta)
      if (after !== before && attempt < CONSISTENT_READ_ATTEMPTS) continue
      // A local commit may have got as far meanwhile.
      if (before <= this.#token) return
      install()
      this.#token = before
      return
    }
  }
}
