import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Loopback `node:http` servers a test answers by hand (a peer, a broken relay), closed together. */
export interface StubServers {
  /** Starts a server on 127.0.0.1 answering with `handler`; resolves with its URL. */
  answering(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string>
  /** Closes every server started, cutting their open connections. */
  closeAll(): Promise<void>
}

/** A set of {@link StubServers}; call `closeAll()` after each test. */
export function createStubServers(): StubServers {
  const servers: Server[] = []
  return {
    async answering(handler) {
      const server = createServer(handler)
      servers.push(server)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    async closeAll() {
      for (const server of servers.splice(0)) {
        server.closeAllConnections()
        await new Promise((resolve) => server.close(resolve))
      }
    },
  }
}
