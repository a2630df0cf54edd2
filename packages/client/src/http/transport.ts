import type { AnySchema, RouteDef, TokenGrantView } from '@svcdb/contract'
import { routes } from '@svcdb/contract'
import * as v from 'valibot'
import type { SessionCredentials, TokensListener } from '../auth/token-session'
import { TokenSession } from '../auth/token-session'
import { ClientError, clientErrorFromBody } from '../errors'
import { abortError, sleep, throwIfAborted } from './abort'
import { readBody } from './read-body'
import { routeUrl } from './route-url'
import type { QueryValue } from './route-url'

/** One call of a contract route. */
export interface CallInput {
  params?: Record<string, string>
  query?: Record<string, QueryValue>
  /** A JSON body (serialised here). */
  json?: unknown
  /** A raw body; set `replayable` when it can be sent twice (bytes, a Blob). */
  body?: BodyInit
  replayable?: boolean
  headers?: Record<string, string>
  signal?: AbortSignal | undefined
  /** Statuses that are answers, not errors (304, say). */
  accept?: readonly number[]
}

/** What a transport needs. */
export interface TransportOptions extends SessionCredentials {
  baseUrl: string
  fetch?: typeof fetch
  /** Retries of idempotent calls after a network error (default 2). */
  retries?: number
  now?: () => number
  /** Told the tokens whenever the session obtains, rotates or loses them. */
  onTokens?: TokensListener
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE'])

/** The parsed JSON answer of a route with a response schema. */
export type ResponseOf<R> = R extends { response: infer S extends AnySchema }
  ? v.InferOutput<S>
  : unknown

/**
 * Sends contract routes over `fetch`: builds the URL, attaches the access token (renewing it
 * once on a 401), retries idempotent calls after network errors, and turns every failure into
 * a `ClientError` (`NETWORK_ERROR`, `ABORTED`, or the server's code).
 */
export class Transport {
  readonly baseUrl: string
  readonly session: TokenSession
  private readonly fetchImpl: typeof fetch
  private readonly retries: number

  /** Throws `TypeError` for a `baseUrl` that is not an http(s) URL, `RangeError` for bad `retries`. */
  constructor(options: TransportOptions) {
    // Misuse fails here, not later as a NETWORK_ERROR retried with backoff.
    if (!isHttpUrl(options.baseUrl))
      throw new TypeError(`baseUrl must be an http or https URL, got ${String(options.baseUrl)}`)
    const retries = options.retries ?? 2
    if (!Number.isSafeInteger(retries) || retries < 0)
      throw new RangeError(`retries must be a non-negative integer, got ${retries}`)
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
    // Called as a plain function: a browser's `window.fetch` throws "Illegal invocation"
    // when called as a method of anything but the window.
    const custom = options.fetch
    this.fetchImpl =
      custom === undefined
        ? (input, init) => globalThis.fetch(input, init)
        : (input, init) => custom(input, init)
    this.retries = retries
    this.session = new TokenSession(
      options,
      {
        exchange: (apiKey) => this.grant(routes.authToken, { api_key: apiKey }),
        refresh: (refreshToken) => this.grant(routes.authRefresh, { refresh_token: refreshToken }),
      },
      options.now,
      options.onTokens,
    )
  }

  /** Calls `route` and returns the raw answer (2xx, or a status in `accept`). */
  async send(route: RouteDef, input: CallInput = {}): Promise<Response> {
    const url = routeUrl(this.baseUrl, route.path, input.params, input.query)
    const replayable = input.body === undefined || input.replayable === true
    const needsToken = route.auth !== 'none'
    let renewed = false
    for (let attempt = 0; ; attempt++) {
      const token = needsToken ? await this.session.token(input.signal) : undefined
      // A custom fetch need not check the signal; a cancelled call must send nothing.
      throwIfAborted(input.signal)
      let response: Response
      try {
        response = await this.fetchImpl(url, this.init(route, input, token))
      } catch (err) {
        if (input.signal?.aborted === true) throw abortError(input.signal)
        const retry = IDEMPOTENT.has(route.method) && replayable && attempt < this.retries
        if (!retry)
          throw new ClientError('NETWORK_ERROR', `${route.method} ${url}: ${String(err)}`, {
            status: 0,
            cause: err,
          })
        await sleep(100 * 3 ** attempt * (0.5 + Math.random()), input.signal)
        continue
      }
      if (response.ok || input.accept?.includes(response.status) === true) return response
      if (response.status === 401 && needsToken && !renewed && replayable) {
        renewed = true
        if (this.session.rejected(token)) {
          await response.body?.cancel()
          continue
        }
      }
      // An error answer cut short is still that status's error, unless the caller gave up.
      const text = await response.text().catch(() => {
        if (input.signal?.aborted === true) throw abortError(input.signal)
        return ''
      })
      throw clientErrorFromBody(response.status, text)
    }
  }

  /** Calls `route` and returns its JSON answer, checked against the route's response schema. */
  async json<R extends RouteDef>(route: R, input: CallInput = {}): Promise<ResponseOf<R>> {
    const response = await this.send(route, input)
    return this.parse(route, response, input.signal) as Promise<ResponseOf<R>>
  }

  /**
   * Reads a JSON answer and checks it with the route's schema (`INVALID_RESPONSE` when it does
   * not fit; `ABORTED` or `NETWORK_ERROR` when the body does not arrive).
   */
  async parse(route: RouteDef, response: Response, signal?: AbortSignal): Promise<unknown> {
    const text = await readBody(response, (r) => r.text(), signal)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch (err) {
      throw new ClientError('INVALID_RESPONSE', `${route.id}: the answer is not JSON`, {
        status: response.status,
        cause: err,
      })
    }
    if (route.response === undefined) return body
    const result = await v.safeParseAsync(route.response, body)
    if (!result.success)
      throw new ClientError(
        'INVALID_RESPONSE',
        `${route.id}: the answer does not follow the contract (${v.summarize(result.issues)})`,
        { status: response.status },
      )
    return result.output
  }

  private init(route: RouteDef, input: CallInput, token: string | undefined): RequestInit {
    const headers: Record<string, string> = { ...input.headers }
    if (token !== undefined) headers.authorization = `Bearer ${token}`
    let body: BodyInit | undefined = input.body
    if (input.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(input.json)
    }
    const init: RequestInit & { duplex?: 'half' } = { method: route.method, headers }
    if (body !== undefined) init.body = body
    // A streamed body needs half-duplex mode in fetch (Node and browsers alike).
    if (body instanceof ReadableStream) init.duplex = 'half'
    if (input.signal !== undefined) init.signal = input.signal
    return init
  }

  private async grant(route: RouteDef, json: unknown): Promise<TokenGrantView> {
    // Both token routes answer a token grant, which `parse` checks.
    return (await this.parse(route, await this.send(route, { json }))) as TokenGrantView
  }
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false
  try {
    const { protocol } = new URL(value)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}
