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
  /** Lets new connections through again. */
  restore(): void
  /** Bytes forwarded from the target to clients so far (to act in the middle of a transfer). */
  forwarded(): number
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
  const { host, port } = options.target
  const open = new Set<Socket>()
  let down = false
  let forwarded = 0
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
    upstream.on('data', (d: Buffer) => (forwarded += d.length))
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
    restore() {
      down = false
    },
    forwarded: () => forwarded,
    async close() {
      down = true
      cutAll()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
