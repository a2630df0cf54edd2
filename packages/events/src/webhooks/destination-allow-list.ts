/** Which webhook destinations may be called. */
export interface DestinationAllowList {
  /** True when `url` is an http(s) URL matching an entry. */
  allows(url: string | URL): boolean
  readonly entries: readonly string[]
}

interface Rule {
  readonly protocol: string
  /** Exact host, or the parent domain of a `*.` wildcard. */
  readonly host: string
  readonly subdomains: boolean
  /** A port, `''` for the scheme's default, or `*` for any. */
  readonly port: string
}

const ENTRY = /^(https?):\/\/(\*\.)?([^/:*?#@]+|\[[0-9A-Fa-f:.]+\])(?::([0-9]{1,5}|\*))?\/?$/

const parseEntry = (entry: string): Rule | 'any' => {
  if (entry === '*') return 'any'
  const match = ENTRY.exec(entry.trim())
  if (match === null)
    throw new TypeError(
      `bad allow-list entry '${entry}': expected '*', 'https://host', 'https://host:port', 'http://host:*' or 'https://*.domain'`,
    )
  const [, scheme, wildcard, host, port] = match
  // Let URL normalise the host (case, IDN, IPv6) and drop a default port.
  const parsed = new URL(
    `${scheme}://${host}${port === undefined || port === '*' ? '' : `:${port}`}`,
  )
  return {
    protocol: parsed.protocol,
    host: parsed.hostname,
    subdomains: wildcard !== undefined,
    port: port === '*' ? '*' : parsed.port,
  }
}

/**
 * Builds the destination allow-list of webhook delivery. Entries: `*` (any http(s) URL), an
 * origin `https://hooks.example.com` or `http://127.0.0.1:8080` (default port when none), any
 * port with `http://127.0.0.1:*`, any subdomain with `https://*.example.com` (not the domain
 * itself). An empty list allows nothing. Throws `TypeError` for a malformed entry.
 *
 * @example
 * const allow = createDestinationAllowList(['https://*.example.com'])
 * allow.allows('https://hooks.example.com/svcdb') // true
 */
export function createDestinationAllowList(entries: readonly string[]): DestinationAllowList {
  const rules = entries.map(parseEntry)
  const anyUrl = rules.includes('any')
  return {
    entries: [...entries],
    allows(input) {
      let url: URL
      try {
        url = typeof input === 'string' ? new URL(input) : input
      } catch {
        return false
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
      if (anyUrl) return true
      return rules.some(
        (rule) =>
          rule !== 'any' &&
          rule.protocol === url.protocol &&
          (rule.port === '*' || rule.port === url.port) &&
          (rule.subdomains ? url.hostname.endsWith(`.${rule.host}`) : url.hostname === rule.host),
      )
    },
  }
}
