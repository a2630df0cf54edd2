import { randomBytes } from 'node:crypto'
import type { Benchmark } from '../../../scripts/bench-protocol'
import { CONCURRENCY, DURATION_MS, run } from './bench-server'
import { generateLoad } from './load-generator'

const MiB = 1024 * 1024

export const benchmarks: Benchmark[] = [
  {
    name: 'files over HTTP (durable)',
    async run() {
      const server = await run({ auth: { kind: 'disabled' } })
      const load = (spec: Omit<Parameters<typeof generateLoad>[0], 'url' | 'durationMs'>) =>
        generateLoad({ url: server.url, durationMs: DURATION_MS, ...spec })
      try {
        // 1 MiB uploads, 8 at a time: distinct content each time, so nothing dedups.
        const uploads = await load({
          method: 'PUT',
          pathPrefix: '/files/up/',
          paths: 256,
          concurrency: 8,
          body: randomBytes(MiB),
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(MiB) },
        })
        const downloads = await load({
          method: 'GET',
          pathPrefix: '/files/up/',
          paths: 64,
          concurrency: 8,
        })
        const writes = await load({
          method: 'PUT',
          pathPrefix: '/files/small/',
          paths: 4096,
          concurrency: CONCURRENCY,
          body: randomBytes(4096),
          headers: { 'content-length': '4096' },
        })
        const reads = await load({
          method: 'GET',
          pathPrefix: '/files/small/',
          paths: 1024,
          concurrency: CONCURRENCY,
        })
        return [
          { name: 'upload 1 MiB files, 8 concurrent', value: uploads, unit: 'MB/s', target: 250 },
          {
            name: 'download 1 MiB files, 8 concurrent',
            value: downloads,
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
