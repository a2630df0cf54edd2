import type { TokensListener } from './auth/token-session'
import { Transport } from './http/transport'
import type { TransportOptions } from './http/transport'
import { subscribeWithCallback } from './events/event-callback'
import type { SubscribeCallbackOptions, Unsubscribe } from './events/event-callback'
import type { SubscribeOptions } from './events/event-subscription'
import { subscribeEvents } from './events/event-subscription'
import type { EventEnvelope } from '@svcdb/events'
import { filesApi } from './resources/files'
import type { FilesApi } from './resources/files'
import { authApi, keysApi } from './resources/keys'
import type { AuthApi, KeysApi } from './resources/keys'
import { cronApi, emailApi, systemApi, tasksApi } from './resources/system'
import type { CronApi, EmailApi, SystemApi, TasksApi } from './resources/system'
import { groupsApi, usersApi } from './resources/users'
import type { GroupsApi, UsersApi } from './resources/users'
import { versionsApi } from './resources/versions'
import type { VersionsApi } from './resources/versions'

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:6830`. */
  baseUrl: string
  /** An API key (`svc_…`): exchanged for tokens on first use and renewed as needed. */
  apiKey?: string
  /**
   * An access token obtained elsewhere (a magic link, say), or an API key to send as it is:
   * the server takes `Authorization: Bearer svc_…` too, with the key's rules, and nothing is
   * exchanged or renewed (what the CLI does, one short process a command).
   */
  token?: string
  /** A refresh token to renew `token` with. */
  refreshToken?: string
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch
  /** Retries of idempotent calls after a network error (default 2). */
  retries?: number
  /**
   * Told the tokens whenever the client obtains or rotates them (`{ token, refreshToken }`),
   * and when a refused renewal leaves it without a refresh token (`{ token }` while the access
   * token is kept until it expires, `undefined` when none is left). It lets an app keep the
   * refresh token somewhere (a browser tab's `sessionStorage`, say) and start a client from it
   * later without the API key. Called synchronously; what it throws goes to `console.error`.
   *
   * @example
   * const client = createClient({
   *   baseUrl: location.origin,
   *   apiKey,
   *   onTokens: (tokens) => {
   *     if (tokens?.refreshToken === undefined) sessionStorage.removeItem('refresh')
   *     else sessionStorage.setItem('refresh', tokens.refreshToken)
   *   },
   * })
   */
  onTokens?: TokensListener
}

/** The live event stream, as an async iterator or through a callback. */
export interface EventsApi {
  /** Envelopes as they happen, reconnecting and resuming by itself; see {@link SubscribeOptions}. */
  subscribe(options?: SubscribeOptions): AsyncIterable<EventEnvelope>
  /**
   * Calls `callback` with each envelope, one at a time, and returns the function that ends
   * the subscription. An error the callback throws goes to `options.onError` (or
   * `console.error`) and the next event still comes.
   *
   * @example
   * const unsubscribe = client.events.subscribe({ pathPrefix: '/docs/' }, (event) => {
   *   console.log(event.event_type, event.payload)
   * })
   * // later
   * await unsubscribe()
   */
  subscribe(
    options: SubscribeCallbackOptions,
    callback: (event: EventEnvelope) => void | Promise<void>,
  ): Unsubscribe
}

/** A client of one svcdb server. */
export interface Client {
  readonly baseUrl: string
  readonly files: FilesApi
  readonly versions: VersionsApi
  readonly keys: KeysApi
  readonly auth: AuthApi
  readonly users: UsersApi
  readonly groups: GroupsApi
  readonly tasks: TasksApi
  readonly cron: CronApi
  readonly system: SystemApi
  readonly email: EmailApi
  readonly events: EventsApi
}

/**
 * Creates a client. Every call takes an `AbortSignal`, and every failure is a `ClientError`
 * (`status`, `code`, `message`, `details`); `NETWORK_ERROR` and `ABORTED` tell a lost
 * connection and a cancelled call from the server's answers. A `baseUrl` that is not an http(s)
 * URL, or an `onTokens` that is not a function, throws `TypeError` at once, and `retries` that
 * is not a non-negative integer `RangeError`.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:6830', apiKey: process.env.SVCDB_API_KEY })
 * await client.files.write('/notes/today.md', '# Today')
 * for await (const entry of client.files.list('/notes')) console.log(entry.path)
 */
export function createClient(options: ClientOptions): Client {
  if (options.onTokens !== undefined && typeof options.onTokens !== 'function')
    throw new TypeError(`onTokens must be a function, got ${typeof options.onTokens}`)
  const transportOptions: TransportOptions = { baseUrl: options.baseUrl }
  if (options.apiKey !== undefined) transportOptions.apiKey = options.apiKey
  if (options.token !== undefined) transportOptions.token = options.token
  if (options.refreshToken !== undefined) transportOptions.refreshToken = options.refreshToken
  if (options.fetch !== undefined) transportOptions.fetch = options.fetch
  if (options.retries !== undefined) transportOptions.retries = options.retries
  if (options.onTokens !== undefined) transportOptions.onTokens = options.onTokens
  const t = new Transport(transportOptions)
  return {
    baseUrl: t.baseUrl,
    files: filesApi(t),
    versions: versionsApi(t),
    keys: keysApi(t),
    auth: authApi(t),
    users: usersApi(t),
    groups: groupsApi(t),
    tasks: tasksApi(t),
    cron: cronApi(t),
    system: systemApi(t),
    email: emailApi(t),
    events: { subscribe: eventsSubscribe(t) },
  }
}

function eventsSubscribe(t: Transport): EventsApi['subscribe'] {
  function subscribe(options?: SubscribeOptions): AsyncIterable<EventEnvelope>
  function subscribe(
    options: SubscribeCallbackOptions,
    callback: (event: EventEnvelope) => void | Promise<void>,
  ): Unsubscribe
  function subscribe(
    options?: SubscribeCallbackOptions,
    callback?: (event: EventEnvelope) => void | Promise<void>,
  ): AsyncIterable<EventEnvelope> | Unsubscribe {
    if (callback === undefined) return subscribeEvents(t, options)
    if (typeof callback !== 'function')
      throw new TypeError('events.subscribe(options, callback) needs callback as a function')
    return subscribeWithCallback(t, options ?? {}, callback)
  }
  return subscribe
}
