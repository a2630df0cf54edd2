import type { Http2Bindings, HttpBindings } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { ServerResponse } from 'node:http'
import type { Context } from 'hono'
import type { AppEnv } from './app-env'
import { nodeBindings } from './node-bindings'

/**
 * Large bodies written to the Node response by the server itself, part by part, instead of
 * through a web `ReadableStream` that @hono/node-server reads back: two web streams per
 * answer cost more than their bytes (measured on GETs of 1 MiB files), and only the socket's
 * write callback says when a part's memory is free again.
 *
 * A handler answers with {@link answerWithParts}: the answer goes through every middleware as
 * an ordinary one without a body (headers set after the handler, like CORS's `Vary`, are
 * kept), and {@link withDirectBodies}, around the app's `fetch`, writes its head and parts.
 */

/** Marks the answer a direct body belongs to: an answer replaced on the way out has none. */
const MARK_HEADER = 'x-svcdb-direct-body'
const PENDING = Symbol('svcdb direct body')

interface DirectBody {
  mark: string
  status: number
  first: Uint8Array
  rest: AsyncGenerator<Uint8Array>
  onError: (err: unknown) => void
}

type Carrier = HttpBindings & { [PENDING]?: DirectBody }

let marks = 0

/** True when the app runs under @hono/node-server (not `app.request()`): direct bodies work. */
export function canAnswerWithParts(c: Context<AppEnv>): boolean {
  return nodeBindings(c) !== undefined
}

/**
 * Answers `status` with `headers` and a body of `parts`. The first part is read now, so a
 * failure there is thrown (an error answer); a later one is passed to `onError` and cuts the
 * body short. Only where {@link canAnswerWithParts} is true.
 */
export async function answerWithParts(
  c: Context<AppEnv>,
  status: 200 | 206,
  headers: Record<string, string>,
  parts: AsyncGenerator<Uint8Array>,
  onError: (err: unknown) => void,
): Promise<Response> {
  const env = nodeBindings(c) as Carrier | undefined
  if (env === undefined) throw new Error('answerWithParts needs the Node.js adapter')
  const first = await parts.next()
  if (first.done === true) return c.body(null, status, headers)
  const mark = String(++marks)
  env[PENDING] = { mark, status, first: first.value, rest: parts, onError }
  return c.body(null, status, { ...headers, [MARK_HEADER]: mark })
}

type Fetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>

/** Wraps the app's `fetch` for @hono/node-server so answers with direct bodies are written. */
export function withDirectBodies(fetch: Fetch): Fetch {
  return async (request, env) => {
    const response = await fetch(request, env)
    const carrier = env as Carrier
    const body = carrier[PENDING]
    if (body === undefined) return response
    delete carrier[PENDING]
    if (response.headers.get(MARK_HEADER) !== body.mark || response.status !== body.status) {
      // Replaced on the way out (an error answer): its body is not this one.
      await body.rest.return(undefined)
      return response
    }
    await send(carrier.outgoing, response, body)
    return RESPONSE_ALREADY_SENT
  }
}

async function send(outgoing: ServerResponse, response: Response, body: DirectBody) {
  const head: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (name !== MARK_HEADER) head[name] = value
  })
  outgoing.writeHead(body.status, head)
  let part: Uint8Array | undefined = body.first
  while (part !== undefined) {
    if (!(await written(outgoing, part))) {
      // The client went away: stop reading.
      await body.rest.return(undefined).catch(() => undefined)
      return
    }
    try {
      const next = await body.rest.next()
      part = next.done === true ? undefined : next.value
    } catch (err) {
      // The status is out: the only way left to say the body is bad is to cut it short.
      body.onError(err)
      outgoing.destroy()
      return
    }
  }
  outgoing.end()
}

/** Writes `part`; true once the socket has taken it, false when the response is gone. */
function written(outgoing: ServerResponse, part: Uint8Array): Promise<boolean> {
  if (outgoing.destroyed || outgoing.socket?.destroyed === true) return Promise.resolve(false)
  return new Promise((resolve) => {
    // Node drops a write to a socket closing under it without calling back: 'close' answers.
    const gone = () => resolve(false)
    outgoing.once('close', gone)
    outgoing.write(part, (err) => {
      outgoing.off('close', gone)
      resolve(err == null)
    })
  })
}
