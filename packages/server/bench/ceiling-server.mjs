// The Node.js ceiling of the side-by-side bench: a bare node:http server doing nothing a
// database must (no disk, no hashing, no routing, no checks), keeping PUT bodies in memory and
// answering GETs from there. What the load generator reaches against it is as fast as any
// Node.js server can answer these requests on this machine. Plain JavaScript: run as is.
import { createServer } from 'node:http'

const bodies = new Map()
const server = createServer((req, res) => {
  if (req.method === 'PUT') {
    const parts = []
    req.on('data', (part) => parts.push(part))
    req.on('end', () => {
      bodies.set(req.url, Buffer.concat(parts))
      res.writeHead(201, { 'content-type': 'application/json' })
      res.end('{"stored":true}')
    })
    return
  }
  const body = bodies.get(req.url)
  if (body === undefined) {
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{"error":{"code":"NOT_FOUND","message":"no such file"}}')
    return
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length })
  res.end(body)
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`))
