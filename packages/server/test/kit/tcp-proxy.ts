import { connect, createServer } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'

/** A loopback TCP proxy whose link can be cut like a dropped network, then restored. */
export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number
  /** `http://127.0.0.1:<port>`. */
  url: string
  /** Resets every open connection and refuses (resets at once) new ones until `restore()`. */
  cut(): void
  /**
   * Once `bytes` more went from the target to clients, forwarding in that direction stops:
   * connections stay open and silent, like a hung link, until `restore()`. Stops inside the
   * data handler, so even a transfer faster than any poll is caught in the middle.
   */
  stallAfter(bytes: number): void
  /** Lets new connections through again, and resumes stalled ones where they stopped. */
  restore(): void
  /** Bytes forwarded from the target to clients so far (to act in the middle of a transfer). */
  forwarded(): number
  /** Forwards new connections to another port (a target restarted elsewhere). */
  retarget(port: number): void
  /** Resets every connection and stops listening. */
  close(): Promise<void>
}

/** Options of {@link startTcpProxy}. */
export interface TcpProxyOptions {
  /** Where connections are forwarded. */
  target: { host: string; port: number }
}

/**
 * Starts a `node:net` proxy on 127.0.0.1:0 forwarding every connection to `target`. A cut
 * resets sockets (RST, not an HTTP answer), so the client sees what a partition looks like:
 * `ECONNRESET` on open requests and on every new connection.
 */
export async function startTcpProxy(options: TcpProxyOptions): Promise<TcpProxy> {
  const { host } = options.target
  let { port } = options.target
  const open = new Set<Socket>()
  let down = false
  let forwarded = 0
  let stallAt = Number.POSITIVE_INFINITY
  // Stalled target sides, with the client each forwards to.
  const stalled = new Map<Socket, Socket>()
  const drop = (socket: Socket) => {
    open.delete(socket)
    socket.resetAndDestroy()
  }
  const server = createServer((client) => {
    if (down) {
      client.on('error', () => undefined)
      client.resetAndDestroy()
      return
    }
    const upstream = connect({ host, port })
    for (const socket of [client, upstream]) {
      open.add(socket)
      // A reset on one side resets the other: a broken link, never a clean end.
      socket.on('error', () => {
        drop(client)
        drop(upstream)
      })
      socket.on('close', () => open.delete(socket))
    }
    upstream.on('data', (d: Buffer) => {
      forwarded += d.length
      if (forwarded < stallAt || stalled.has(upstream)) return
      upstream.unpipe(client)
      upstream.pause()
      stalled.set(upstream, client)
    })
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const listening = (server.address() as AddressInfo).port
  const cutAll = () => {
    for (const socket of [...open]) drop(socket)
  }
  return {
    port: listening,
    url: `http://127.0.0.1:${listening}`,
    cut() {
      down = true
      cutAll()
    },
    stallAfter(bytes) {
      stallAt = forwarded + bytes
    },
    retarget(next) {
      port = next
    },
    restore() {
      down = false
      stallAt = Number.POSITIVE_INFINITY
      for (const [upstream, client] of stalled) {
        upstream.pipe(client)
        upstream.resume()
      }
      stalled.clear()
    },
    forwarded: () => forwarded,
    async close() {
      down = true
      cutAll()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
