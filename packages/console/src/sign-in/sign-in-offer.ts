/** The ways of signing in the server offers besides an API key. */
export interface SignInOffer {
  /** The server delivers magic links (email is configured, or it runs with `--dev`). */
  magicLink: boolean
}

/**
 * Where the server says so, beside the console's own files: a console-only JSON
 * (`{"magic_link": boolean}`), since no unauthenticated API route tells.
 */
export const SIGN_IN_OFFER_FILE = 'sign-in.json'

/** Reads the server's answer; anything but `{"magic_link": true}` offers no magic link. */
export function parseSignInOffer(body: unknown): SignInOffer {
  const magicLink =
    typeof body === 'object' &&
    body !== null &&
    (body as { magic_link?: unknown }).magic_link === true
  return { magicLink }
}

/**
 * Asks the server what it offers, at `url` (`/console/sign-in.json`). A failure (an older
 * server, a network error) offers the API key alone: signing in with one still works.
 */
export async function loadSignInOffer(
  url: string,
  fetchFn: typeof fetch = fetch,
): Promise<SignInOffer> {
  try {
    const res = await fetchFn(url, { headers: { accept: 'application/json' } })
    if (!res.ok) return { magicLink: false }
    return parseSignInOffer(await res.json())
  } catch {
    return { magicLink: false }
  }
}
