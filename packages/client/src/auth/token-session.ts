import type { TokenGrantView } from '@svcdb/contract'
import { raceSignal } from '../http/abort'
import { jwtExpiry } from './jwt-expiry'

/** What a session starts from: an API key, or tokens obtained elsewhere. */
export interface SessionCredentials {
  /** Exchanged for tokens on first use, and again whenever the refresh token is gone. */
  apiKey?: string
  /** An access token to use as is (until it expires, when there is a way to renew it). */
  token?: string
  /** Rotated to renew the access token. */
  refreshToken?: string
}

/** The tokens a session holds after obtaining, rotating or losing them. */
export interface SessionTokens {
  /** The access token. */
  token: string
  /** The refresh token to renew it with, absent once it has been spent or refused. */
  refreshToken?: string
}

/**
 * Told the tokens a session holds whenever they change: after an exchange or a refresh, and
 * after a refused renewal (`undefined` when no token is left, `{ token }` alone when the access
 * token is kept until it expires). Called synchronously; what it throws goes to `console.error`.
 */
export type TokensListener = (tokens: SessionTokens | undefined) => void

/** The two token calls of the API, made without an access token. */
export interface TokenEndpoints {
  exchange(apiKey: string): Promise<TokenGrantView>
  refresh(refreshToken: string): Promise<TokenGrantView>
}

/** Renew when less than this share of the token's lifetime remains (or one minute). */
const RENEW_SHARE = 0.1
const RENEW_MIN_MS = 60_000

/**
 * The access token of a client. It is fetched on first use, renewed before it expires, and
 * renewed by one request however many calls need it at once. A refresh token is dropped the
 * moment it is sent, so a rotated-away token is never presented twice (the server would
 * revoke the whole family). When refreshing fails, the API key (if any) is exchanged again;
 * without one, the current token is kept until the server refuses it.
 */
export class TokenSession {
  private accessToken: string | undefined
  private renewAt = Number.POSITIVE_INFINITY
  private refreshToken: string | undefined
  private renewing: Promise<string | undefined> | undefined

  constructor(
    private readonly credentials: SessionCredentials,
    private readonly endpoints: TokenEndpoints,
    private readonly now: () => number = Date.now,
    private readonly onTokens?: TokensListener,
  ) {
    this.accessToken = credentials.token
    this.refreshToken = credentials.refreshToken
    const expiry = credentials.token === undefined ? undefined : jwtExpiry(credentials.token)
    if (expiry !== undefined) this.renewAt = expiry - RENEW_MIN_MS
  }

  /** True when the session has any credential to send. */
  get hasCredentials(): boolean {
    return (
      this.accessToken !== undefined ||
      this.refreshToken !== undefined ||
      this.credentials.apiKey !== undefined
    )
  }

  /** The token to send now, renewing it first when it is due. */
  async token(signal?: AbortSignal): Promise<string | undefined> {
    if (this.accessToken !== undefined && this.now() < this.renewAt) return this.accessToken
    if (!this.canRenew()) return this.accessToken
    return raceSignal(this.renew(), signal)
  }

  /**
   * The server refused `token` (401): forget it, so the next call renews. Returns true when
   * a renewal is possible, i.e. retrying makes sense.
   */
  rejected(token: string | undefined): boolean {
    if (token !== undefined && token === this.accessToken) {
      this.accessToken = undefined
      this.renewAt = Number.POSITIVE_INFINITY
    }
    return this.canRenew()
  }

  private canRenew(): boolean {
    return this.refreshToken !== undefined || this.credentials.apiKey !== undefined
  }

  private renew(): Promise<string | undefined> {
    // One renewal for every caller; it runs without any one caller's signal.
    this.renewing ??= this.obtain().finally(() => {
      this.renewing = undefined
    })
    return this.renewing
  }

  private async obtain(): Promise<string | undefined> {
    let grant: TokenGrantView | undefined
    const refreshToken = this.refreshToken
    if (refreshToken !== undefined) {
      this.refreshToken = undefined
      grant = await this.endpoints.refresh(refreshToken).catch(() => undefined)
    }
    if (grant === undefined) {
      const apiKey = this.credentials.apiKey
      // Nothing left to renew with: keep the current token, which may well be valid until it
      // expires (a renewal starts early); the server answers 401 once it is not.
      if (apiKey === undefined) {
        // The refresh token is spent either way, so a copy kept elsewhere is stale.
        if (refreshToken !== undefined) this.report()
        return this.accessToken
      }
      try {
        grant = await this.endpoints.exchange(apiKey)
      } catch (err) {
        if (refreshToken !== undefined) this.report()
        throw err
      }
    }
    const lifetime = grant.expires_in * 1000
    this.accessToken = grant.token
    this.refreshToken = grant.refresh_token
    this.renewAt =
      this.now() + lifetime - Math.max(lifetime * RENEW_SHARE, Math.min(RENEW_MIN_MS, lifetime / 2))
    this.report()
    return this.accessToken
  }

  /** Tells `onTokens` what the session holds now. */
  private report(): void {
    if (this.onTokens === undefined) return
    let tokens: SessionTokens | undefined
    if (this.accessToken !== undefined) {
      tokens = { token: this.accessToken }
      if (this.refreshToken !== undefined) tokens.refreshToken = this.refreshToken
    }
    try {
      this.onTokens(tokens)
    } catch (err) {
      // A listener's bug must not break the call that renewed; it is reported, not dropped.
      console.error('svcdb client: onTokens threw', err)
    }
  }
}
