import { ClientError } from '@svcdb/client'
import type { Client, ClientOptions, SessionTokens } from '@svcdb/client'
import type { WhoamiView } from '@svcdb/contract'

/** Who the fake server's only API key speaks for. */
export const FAKE_ME: WhoamiView = {
  user_id: null,
  username: 'ada',
  email: null,
  is_root: false,
  key_id: null,
  scoped: false,
  rules: [],
}

/** The API key the fake server accepts. */
export const GOOD_KEY = 'svc_good-key'

/** What the fake server answers every magic-link request. */
export const MAGIC_LINK_MESSAGE = 'if an account has this address, a sign-in link is on its way'

/** A `createClient` whose clients act like the real one against a tiny fake server. */
export interface FakeServer {
  createClient(options: ClientOptions): Client
  /** The options of every client made, in order. */
  readonly made: ClientOptions[]
  /** Refresh tokens the server still accepts (each once: presenting it rotates it away). */
  readonly liveRefreshTokens: Set<string>
  /** Magic-link codes the server still accepts (each once). */
  readonly liveMagicLinkCodes: Set<string>
  /** Every address a magic link was asked for, in order. */
  readonly magicLinkRequests: string[]
  /** Makes every call fail as if the server were unreachable. */
  offline: boolean
}

const unauthorized = () =>
  new ClientError('UNAUTHORIZED', 'the API key is not valid', { status: 401 })
const usedCode = () =>
  new ClientError('UNAUTHORIZED', 'invalid, expired or used magic link code', { status: 401 })

/**
 * A stand-in for `createClient` of `@svcdb/client`: its clients exchange {@link GOOD_KEY} and
 * rotate refresh tokens on `auth.whoami()`, calling `onTokens` as the real session does, and
 * exchange magic-link codes for a bare access token, so the console's session logic runs in
 * Node without a server.
 */
export function createFakeServer(): FakeServer {
  let issued = 0
  const grant = (): SessionTokens => {
    issued++
    const tokens = { token: `at_${issued}`, refreshToken: `rt_${issued}` }
    fake.liveRefreshTokens.add(tokens.refreshToken)
    return tokens
  }
  const fake: FakeServer = {
    made: [],
    liveRefreshTokens: new Set(),
    liveMagicLinkCodes: new Set(),
    magicLinkRequests: [],
    offline: false,
    createClient(options) {
      fake.made.push(options)
      let refreshToken = options.refreshToken
      let token = options.token
      const whoami = async () => {
        if (fake.offline) throw new ClientError('NETWORK_ERROR', 'fetch failed', { status: 0 })
        if (token !== undefined) return FAKE_ME
        if (refreshToken !== undefined) {
          const presented = refreshToken
          refreshToken = undefined
          if (!fake.liveRefreshTokens.delete(presented)) {
            options.onTokens?.(undefined)
            throw unauthorized()
          }
        } else if (options.apiKey !== GOOD_KEY) throw unauthorized()
        const tokens = grant()
        token = tokens.token
        refreshToken = tokens.refreshToken
        options.onTokens?.(tokens)
        return FAKE_ME
      }
      const requestMagicLink = async (email: string) => {
        if (fake.offline) throw new ClientError('NETWORK_ERROR', 'fetch failed', { status: 0 })
        fake.magicLinkRequests.push(email)
        return { message: MAGIC_LINK_MESSAGE }
      }
      const verifyMagicLink = async (code: string) => {
        if (fake.offline) throw new ClientError('NETWORK_ERROR', 'fetch failed', { status: 0 })
        if (!fake.liveMagicLinkCodes.delete(code)) throw usedCode()
        issued++
        return { token: `at_${issued}`, expires_in: 900 }
      }
      return {
        baseUrl: options.baseUrl,
        auth: { whoami, requestMagicLink, verifyMagicLink },
      } as unknown as Client
    },
  }
  return fake
}
