import { isIPv6 } from 'node:net'
import type { Context } from 'hono'

/** The client name of requests whose remote address is unknown (`app.request()` in tests). */
export const UNKNOWN_CLIENT = 'unknown'

/**
 * Who sent the request, for per-client limits: the socket's remote address as
 * @hono/node-server passes it (`c.env.incoming.socket`), an IPv6 address reduced to its
 * /64 network (one host usually holds the whole /64), an IPv4-mapped one to the IPv4
 * address. Behind a reverse proxy this is the proxy.
 */
export function clientAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: unknown } } } | undefined
  const address = env?.incoming?.socket?.remoteAddress
  if (typeof address !== 'string' || address === '') return UNKNOWN_CLIENT
  return clientOf(address)
}

/** The client an address counts as (see {@link clientAddress}). */
export function clientOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped !== null) return mapped[1] as string
  if (!isIPv6(address)) return address
  const [head = '', tail] = address.split('%')[0]!.split('::')
  const front = head === '' ? [] : head.split(':')
  const back = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups =
    tail === undefined
      ? front
      : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back]
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`
}
