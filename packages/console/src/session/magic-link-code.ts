/**
 * The query parameter a mailed magic link carries its code in: the server mails
 * `<server>/console/?magic_link_code=<code>` when it serves the console.
 */
export const MAGIC_LINK_PARAM = 'magic_link_code'

/** A magic link the console was opened by. */
export interface MagicLinkArrival {
  /** The single-use code, to exchange at `GET /auth/magic-link/verify` (may be empty). */
  code: string
  /** The same address without the code (path, other parameters and hash kept). */
  cleanUrl: string
}

/**
 * The magic-link code in `href`, if it has one, and the address to put in the address bar
 * instead: the code is single-use, so it must not stay in the history or be bookmarked.
 *
 * @example
 * takeMagicLinkCode('https://db.example.com/console/?magic_link_code=abc#/files/')
 * // { code: 'abc', cleanUrl: '/console/#/files/' }
 */
export function takeMagicLinkCode(href: string): MagicLinkArrival | undefined {
  const url = new URL(href)
  const code = url.searchParams.get(MAGIC_LINK_PARAM)
  if (code === null) return undefined
  url.searchParams.delete(MAGIC_LINK_PARAM)
  return { code, cleanUrl: `${url.pathname}${url.search}${url.hash}` }
}
