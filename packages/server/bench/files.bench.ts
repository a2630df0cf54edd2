import { randomBytes } from 'node:crypto'
import type { Benchmark } from '../../../scripts/bench-protocol'
import { hammer, run } from './bench-server'

const MiB = 1024 * 1024

export const benchmarks: Benchmark[] = [
  {
    name: 'files over HTTP (durable)',
    async run() {
      const server = await run({ auth: { kind: 'disabled' } })
      try {
        const mib = randomBytes(MiB)
        let n = 0
        // 1 MiB uploads, 8 at a time: distinct content each time, so nothing dedups.
        const uploads = await withConcurrency(
          8,
          () => {
            const body = Buffer.from(mib)
            body.writeUInt32LE(n, 0)
            return {
              method: 'PUT',
              path: `/files/up/${n++ % 256}`,
              body,
              headers: {
                'content-type': 'application/octet-stream',
                'content-length': String(MiB),
              },
            }
          },
          server.url,
        )
        const downloads = await withConcurrency(
          8,
          () => ({ method: 'GET', path: `/files/up/${n++ % 64}` }),
          server.url,
        )
        const small = randomBytes(4096)
        let m = 0
        const writes = await hammer(server.url, () => {
          const body = Buffer.from(small)
          body.writeUInt32LE(m, 0)
          return {
            method: 'PUT',
            path: `/files/small/${m++ % 4096}`,
            body,
            headers: { 'content-length': '4096' },
          }
        })
        const reads = await hammer(server.url, () => ({
          method: 'GET',
          path: `/files/small/${m++ % 1024}`,
        }))
        return [
          {
            name: 'upload 1 MiB files, 8 concurrent',
            value: uploads * 1,
            unit: 'MB/s',
            target: 250,
          },
          {
            name: 'download 1 MiB files, 8 concurrent',
            value: downloads * 1,
            unit: 'MB/s',
            target: 800,
          },
          {
            name: '4 KiB writes, 32 concurrent clients',
            value: writes,
            unit: 'writes/s',
            target: 8000,
          },
          {
            name: '4 KiB reads, 32 concurrent clients',
            value: reads,
            unit: 'reads/s',
            target: 20000,
          },
        ]
      } finally {
        await server.close()
      }
    },
  },
]

/** Requests per second with `concurrency` clients (each request moving 1 MiB here). */
async function withConcurrency(
  concurrency: number,
  make: () => { method: string; path: string; headers?: Record<string, string>; body?: Buffer },
  url: URL,
): Promise<number> {
  const deadline = Date.now() + 3000
  let done = 0
  const worker = async () => {
    while (Date.now() < deadline) {
      const r = make()
      const res = await fetch(new URL(r.path, url), {
        method: r.method,
        ...(r.headers === undefined ? {} : { headers: r.headers }),
        ...(r.body === undefined ? {} : { body: r.body as unknown as BodyInit }),
      })
      if (res.status >= 300) throw new Error(`${r.method} ${r.path}: ${res.status}`)
      await res.arrayBuffer()
      done++
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return done / 3
}
