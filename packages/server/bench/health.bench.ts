import { Agent, request } from 'node:http'
import { createLogger, DEFAULT_SERVER_CONFIG, startServer } from '@svcdb/server'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const DURATION_MS = 3_000
const CONCURRENCY = 32

/** Sends GET requests on keep-alive connections for a fixed time; returns completed requests. */
async function hammer(url: URL, path: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const deadline = Date.now() + DURATION_MS
  let done = 0
  const worker = async () => {
    while (Date.now() < deadline) {
      await new Promise<void>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path, agent }, (res) => {
          res.resume()
          res.on('end', resolve)
        })
        req.on('error', reject)
        req.end()
      })
      done++
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  agent.destroy()
  return done
}

export const benchmarks = [
  {
    name: 'health over HTTP',
    async run() {
      const dataDir = await mkdtemp(join(tmpdir(), 'svcdb-bench-'))
      const server = await startServer(
        { ...DEFAULT_SERVER_CONFIG, port: 0, dataDir, auth: { kind: 'disabled' } },
        { logger: createLogger({ level: 'silent' }) },
      )
      try {
        const count = await hammer(new URL(server.url), '/system/health')
        return [
          {
            name: `GET /system/health, ${CONCURRENCY} keep-alive connections (client in-process)`,
            value: count / (DURATION_MS / 1000),
            unit: 'req/s',
          },
        ]
      } finally {
        await server.close()
        await rm(dataDir, { recursive: true, force: true })
      }
    },
  },
]
