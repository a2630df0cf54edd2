/** A magic link to deliver. */
export interface MagicLinkMessage {
  /** The account's address. */
  email: string
  userId: string
  /** The single-use code; the link is `GET /auth/magic-link/verify?code=<code>`. */
  code: string
  /** Unix milliseconds. */
  expiresAt: number
}

/** Delivers magic links: by email on a real server, to a log in development. */
export interface MagicLinkSender {
  send(message: MagicLinkMessage): Promise<void>
}

/** The verification link of `code` on the server at `baseUrl`. */
export function magicLinkUrl(baseUrl: string, code: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/auth/magic-link/verify?code=${encodeURIComponent(code)}`
}

/** Options of {@link createLoggingMagicLinkSender}. */
export interface LoggingMagicLinkSenderOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:6830`. */
  baseUrl: string
  /** Receives one line per link. */
  log: (line: string) => void
}

/**
 * The development hook (`--dev`): hands every link to `log` instead of mailing it.
 *
 * @example
 * const sender = createLoggingMagicLinkSender({ baseUrl: server.url, log: console.log })
 */
export function createLoggingMagicLinkSender(
  options: LoggingMagicLinkSenderOptions,
): MagicLinkSender {
  return {
    send(message) {
      options.log(`magic link for ${message.email}: ${magicLinkUrl(options.baseUrl, message.code)}`)
      return Promise.resolve()
    },
  }
}
