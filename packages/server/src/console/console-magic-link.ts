import { CONSOLE_PREFIX } from './console-routes'

/** The query parameter of the console's address that carries a magic-link code. */
export const CONSOLE_MAGIC_LINK_PARAM = 'magic_link_code'

/**
 * The link mailed for a magic-link code when the server serves the console: it opens the
 * console, which exchanges the code at `GET /auth/magic-link/verify` itself and drops it from
 * the address bar. (The verify endpoint answers JSON, which a mail reader's browser would
 * just show.)
 *
 * @example
 * consoleMagicLinkUrl('https://db.example.com/', 'abc') // 'https://db.example.com/console/?magic_link_code=abc'
 */
export function consoleMagicLinkUrl(baseUrl: string, code: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${CONSOLE_PREFIX}?${CONSOLE_MAGIC_LINK_PARAM}=${encodeURIComponent(code)}`
}
