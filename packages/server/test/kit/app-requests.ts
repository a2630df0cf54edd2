/** A request of {@link TestApp.as}: `json` is sent as a JSON body. */
export type TestRequest = RequestInit & { json?: unknown }

/** Options of one request made by {@link TestApp.call}. */
export interface CallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string
  /** Sent as the JSON body. */
  body?: unknown
  /** Extra headers. */
  headers?: Record<string, string>
}

/** What the kit needs of an app: Hono's `request`. */
export interface RequestableApp {
  request(path: string, init?: RequestInit): Response | Promise<Response>
}

/** Requests to `app` as the holder of `token`, the JSON body in `json`. */
export function requestsAs(
  app: RequestableApp,
  token: string,
): (path: string, init?: TestRequest) => Response | Promise<Response> {
  return (path, init = {}) => {
    const { json, ...rest } = init
    return app.request(path, {
      ...rest,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      headers: {
        authorization: `Bearer ${token}`,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(rest.headers as Record<string, string>),
      },
    })
  }
}

/** One request to `app` by method and path, with an optional token and JSON body. */
export function callerOf(
  app: RequestableApp,
): (method: string, path: string, options?: CallOptions) => Promise<Response> {
  return async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`
    const init: RequestInit = { method, headers }
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json'
      init.body = JSON.stringify(opts.body)
    }
    return app.request(path, init)
  }
}
