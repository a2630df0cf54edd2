import type { HashDomain } from './hasher'

const encoder = new TextEncoder()
const prefixes = new Map<HashDomain, Uint8Array>()

/**
 * The bytes hashed before an object of `domain`: its name and a colon (`chunk:`, `file:`…),
 * so that ids of different kinds never collide (DESIGN §3.2).
 */
export function domainPrefix(domain: HashDomain): Uint8Array {
  let prefix = prefixes.get(domain)
  if (prefix === undefined) {
    prefix = encoder.encode(`${domain}:`)
    prefixes.set(domain, prefix)
  }
  return prefix
}
