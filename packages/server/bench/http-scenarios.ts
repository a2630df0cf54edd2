import { randomBytes } from 'node:crypto'
import { CONCURRENCY } from './bench-server'
import type { LoadSpec } from './load-generator'

const MiB = 1024 * 1024

/** One HTTP load, run the same way against svcdb and a peer server. */
export interface HttpScenario {
  name: string
  /** What one completed request per second amounts to (1 MiB files: MB/s). */
  unit: string
  /** The svcdb ÷ nginx ratio issue 16 aims for. */
  target: number
  spec: Omit<LoadSpec, 'url' | 'durationMs'>
}

/**
 * The four file loads of issue 16, in the order they must run: each GET reads files its PUT
 * wrote. The bodies are made once, so both servers receive the same bytes; the load
 * generator stamps the request index into each, so nothing deduplicates.
 */
export function httpScenarios(): HttpScenario[] {
  return [
    {
      name: 'PUT 1 MiB files, 8 concurrent',
      unit: 'MB/s',
      target: 0.75,
      spec: {
        method: 'PUT',
        pathPrefix: '/files/up/',
        paths: 256,
        concurrency: 8,
        body: randomBytes(MiB),
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(MiB) },
      },
    },
    {
      name: 'GET 1 MiB files, 8 concurrent',
      unit: 'MB/s',
      target: 0.5,
      spec: { method: 'GET', pathPrefix: '/files/up/', paths: 64, concurrency: 8 },
    },
    {
      name: 'PUT 4 KiB files, 32 concurrent',
      unit: 'writes/s',
      target: 0.5,
      spec: {
        method: 'PUT',
        pathPrefix: '/files/small/',
        paths: 4096,
        concurrency: CONCURRENCY,
        body: randomBytes(4096),
        headers: { 'content-length': '4096' },
      },
    },
    {
      name: 'GET 4 KiB files, 32 concurrent',
      unit: 'reads/s',
      target: 0.5,
      spec: { method: 'GET', pathPrefix: '/files/small/', paths: 1024, concurrency: CONCURRENCY },
    },
  ]
}
