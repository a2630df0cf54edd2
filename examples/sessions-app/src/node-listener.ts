import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'

/** Where to listen. */
export interface ListenOptions {
  /** Default 0: any free port. */
  port?: number
  /** Default `127.0.0.1`: the app's routes have no authentication of their own. */
  host?: string
}

/** A listening Node HTTP server. */
export interface NodeListener {
  /** Base URL, e.g. `http://127.0.0.1:6840`. */
  url: string
  port: number
  /** Stops accepting, lets open requests finish for up to `graceMs`, then cuts them. */
  close(graceMs: number): Promise<void>
}

/** Serves a fetch handler on Node's HTTP server; resolves once listening. */
export async function listenNode(
  fetch: (request: Request) => Response | Promise<Response>,
  options: ListenOptions = {},
): Promise<NodeListener> {
  const host = options.host ?? '127.0.0.1'
  const server = createAdaptorServer({ fetch }) as Server
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: (graceMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => server.closeAllConnections(), graceMs)
        timer.unref()
        server.close((err) => {
          clearTimeout(timer)
          if (err) reject(err)
          else resolve()
        })
        // Idle keep-alive sockets would otherwise hold `close` open.
        server.closeIdleConnections()
      }),
  }
}
