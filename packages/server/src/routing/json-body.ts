import type { Context } from 'hono'
import { ServerError } from '../errors/server-error'
import type { AppEnv } from './app-env'
import { readRequestBytes } from './request-stream'

/** Largest JSON request body accepted (DESIGN §7). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024

/**
 * Deepest nesting of arrays and objects accepted in a JSON body. Schema validation, the query
 * compiler and `JSON.stringify` all recurse, so a body nested thousands deep would overflow
 * the stack; no request of the API needs more than a few levels.
 */
export const MAX_JSON_DEPTH = 64

const decoder = new TextDecoder()

/**
 * Reads and parses a JSON request body: at most {@link MAX_JSON_BODY_BYTES} (counted as it
 * streams: 413 `PAYLOAD_TOO_LARGE`), nested at most {@link MAX_JSON_DEPTH} deep (400
 * `VALIDATION_FAILED`, checked on the text before anything recursive sees it). An empty body
 * is `undefined`; text that is not JSON is 400 `BAD_REQUEST`.
 */
export async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  const bytes = await readRequestBytes(c, { maxBytes: MAX_JSON_BODY_BYTES, what: 'a JSON body' })
  const text = decoder.decode(bytes)
  if (text.trim() === '') return undefined
  if (nestingExceeds(text, MAX_JSON_DEPTH)) {
    const message = `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`
    throw new ServerError('VALIDATION_FAILED', `invalid request: body ${message}`, {
      details: [{ path: 'body', message }],
    })
  }
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new ServerError('BAD_REQUEST', 'request body is not valid JSON')
  }
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPENERS = new Set([0x5b, 0x7b]) // [ {
const CLOSERS = new Set([0x5d, 0x7d]) // ] }

/**
 * True when brackets outside strings nest deeper than `max`. One pass, no recursion; text that
 * is not JSON is left for `JSON.parse` to refuse.
 */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === BACKSLASH) i++
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) inString = true
    else if (OPENERS.has(code)) {
      if (++depth > max) return true
    } else if (CLOSERS.has(code)) depth--
  }
  return false
}
