import { createClient, isClientError } from '@svcdb/client'
import type { Client, ClientOptions, SessionTokens } from '@svcdb/client'
import type { WhoamiView } from '@svcdb/contract'
import { createRefreshTokenStore } from './refresh-token-store'
import type { TokenStorage } from './refresh-token-store'

/** A signed-in console: its client and who it speaks for. */
export interface SignedIn {
  client: Client
  me: WhoamiView
}

/** Options of {@link createConsoleSession}. */
export interface ConsoleSessionOptions {
  /** The server the console was loaded from (`location.origin`). */
  baseUrl: string
  /** Where the refresh token is kept (`sessionStorage`). */
  storage: TokenStorage
  /** Makes the clients; `createClient` of `@svcdb/client` unless a test injects one. */
  createClient?: (options: ClientOptions) => Client
}

/** Signing in and out of the console. */
export interface ConsoleSession {
  /**
   * Exchanges `apiKey` for tokens and asks who it is; then recreates the client from the
   * tokens alone, so the key is kept nowhere. Throws the server's `ClientError` (a wrong key
   * is `UNAUTHORIZED`), leaving nothing stored.
   */
  signIn(apiKey: string): Promise<SignedIn>
  /**
   * Asks the server to mail a sign-in link to `email`; resolves to its answer, which is the
   * same whether or not an account has the address. Throws its `ClientError` (`RATE_LIMITED`…).
   */
  requestMagicLink(email: string): Promise<string>
  /**
   * Exchanges a magic link's code for an access token and asks who it is. The grant has no
   * refresh token (spec), so nothing is stored and a refresh token left from an earlier
   * session is cleared: the session lasts as long as the token and this page. Throws the
   * server's `ClientError` (a used, expired or unknown code is `UNAUTHORIZED`).
   */
  signInWithMagicLink(code: string): Promise<SignedIn>
  /**
   * Starts again from the refresh token in storage, if any: `undefined` when there is none or
   * the server refuses it (it is then cleared). Other failures (`NETWORK_ERROR`…) clear it
   * too and are thrown, for the sign-in screen to show.
   */
  resume(): Promise<SignedIn | undefined>
  /** Forgets the tokens. The caller drops its client. */
  signOut(): void
}

/**
 * Creates the console's session: the access token lives only in the client's memory, the
 * refresh token in `storage`, updated whenever the client rotates it.
 *
 * @example
 * const session = createConsoleSession({ baseUrl: location.origin, storage: sessionStorage })
 * const signedIn = (await session.resume()) ?? (await session.signIn(apiKey))
 */
export function createConsoleSession(options: ConsoleSessionOptions): ConsoleSession {
  const store = createRefreshTokenStore(options.storage)
  const makeClient = options.createClient ?? createClient
  // Bumped by every sign-in and sign-out, so a client left behind cannot store tokens again.
  let generation = 0

  const keeper = () => {
    const mine = ++generation
    let latest: SessionTokens | undefined
    const onTokens = (tokens: SessionTokens | undefined) => {
      if (mine !== generation) return
      latest = tokens
      if (tokens?.refreshToken === undefined) store.clear()
      else store.save(tokens.refreshToken)
    }
    return { onTokens, latest: () => latest }
  }

  return {
    async signIn(apiKey) {
      const keep = keeper()
      try {
        const first = makeClient({ baseUrl: options.baseUrl, apiKey, onTokens: keep.onTokens })
        const me = await first.auth.whoami()
        const tokens = keep.latest()
        // A key sent as a bearer gives no tokens; the console never keeps a key, so refuse.
        if (tokens === undefined) throw new Error('the server gave no token for this API key')
        const fromTokens: ClientOptions = {
          baseUrl: options.baseUrl,
          token: tokens.token,
          onTokens: keep.onTokens,
        }
        if (tokens.refreshToken !== undefined) fromTokens.refreshToken = tokens.refreshToken
        return { client: makeClient(fromTokens), me }
      } catch (err) {
        store.clear()
        throw err
      }
    },

    async requestMagicLink(email) {
      const anonymous = makeClient({ baseUrl: options.baseUrl })
      return (await anonymous.auth.requestMagicLink(email)).message
    },

    async signInWithMagicLink(code) {
      // A new session: clients of an earlier one must not store tokens any more.
      generation++
      store.clear()
      const anonymous = makeClient({ baseUrl: options.baseUrl })
      const grant = await anonymous.auth.verifyMagicLink(code)
      const client = makeClient({ baseUrl: options.baseUrl, token: grant.token })
      return { client, me: await client.auth.whoami() }
    },

    async resume() {
      const refreshToken = store.load()
      if (refreshToken === undefined) return undefined
      const keep = keeper()
      const client = makeClient({ baseUrl: options.baseUrl, refreshToken, onTokens: keep.onTokens })
      try {
        return { client, me: await client.auth.whoami() }
      } catch (err) {
        generation++
        store.clear()
        if (isClientError(err, 'UNAUTHORIZED')) return undefined
        throw err
      }
    },

    signOut() {
      generation++
      store.clear()
    },
  }
}
