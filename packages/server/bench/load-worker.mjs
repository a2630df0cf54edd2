// Load generator for the HTTP benchmarks, run in its own thread so the client's work does not
// share the server's event loop. Plain JavaScript: a worker needs no TypeScript loader.
import { Agent, request } from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'

/**
 * workerData: { url, method, pathPrefix, paths, concurrency, durationMs, headers?, body? }
 * Request i goes to `${pathPrefix}${i % paths}`; a body (Uint8Array) gets i written into its
 * first four bytes, so no two bodies are equal and nothing deduplicates.
 */
const spec = workerData
const url = new URL(spec.url)
const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency })
const deadline = Date.now() + spec.durationMs
let next = 0
let done = 0
let bytes = 0

function once() {
  const i = next++
  let body
  if (spec.body !== undefined) {
    body = Buffer.from(spec.body)
    body.writeUInt32LE(i >>> 0, 0)
  }
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${spec.pathPrefix}${i % spec.paths}`,
        method: spec.method,
        headers: spec.headers,
        agent,
      },
      (res) => {
        if ((res.statusCode ?? 0) >= 300) {
          // The answer's body names the error: keep its start for the report.
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (part) => (text = (text + part).slice(0, 500)))
          res.on('end', () =>
            reject(
              new Error(
                `${spec.method} ${spec.pathPrefix}${i % spec.paths}: ${res.statusCode} ${text}`,
              ),
            ),
          )
          return
        }
        res.on('data', (part) => (bytes += part.length))
        res.on('end', resolve)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function client() {
  while (Date.now() < deadline) {
    await once()
    done++
  }
}

try {
  await Promise.all(Array.from({ length: spec.concurrency }, client))
  parentPort.postMessage({ done, bytes, seconds: spec.durationMs / 1000 })
} catch (err) {
  parentPort.postMessage({ error: String(err) })
} finally {
  agent.destroy()
}
