import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A static server for the test page on a loopback port. */
export interface PageServer {
  /** The page's origin, e.g. `http://127.0.0.1:41234`. */
  origin: string
  close(): Promise<void>
}

// The empty icon spares a favicon request, which would only add a 404 to the console.
const HTML = `<!doctype html>
<html>
  <head><meta charset="utf-8"><link rel="icon" href="data:,"><title>svcdb client</title></head>
  <body><script type="module" src="/page.js"></script></body>
</html>`

/** Serves `/` as a page that loads `/page.js`, which is `script`. */
export async function startPageServer(script: string): Promise<PageServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    if (path === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML)
    else if (path === '/page.js')
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((err) => (err ? reject(err) : resolve()))
      }),
  }
}
