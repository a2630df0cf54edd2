import { Worker } from 'node:worker_threads'

/** One load run: what to send, how many at once, for how long. */
export interface LoadSpec {
  url: URL
  method: 'GET' | 'PUT'
  /** Request i goes to `${pathPrefix}${i % paths}`. */
  pathPrefix: string
  paths: number
  concurrency: number
  durationMs: number
  headers?: Record<string, string>
  /** A body template; each request writes its index into the first four bytes. */
  body?: Uint8Array
}

/** Runs `spec` from a worker thread; resolves with completed requests per second. */
export function generateLoad(spec: LoadSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { ...spec, url: spec.url.href },
    })
    worker.once('message', (result: { done?: number; seconds?: number; error?: string }) => {
      void worker.terminate()
      if (result.error !== undefined) reject(new Error(result.error))
      else resolve((result.done as number) / (result.seconds as number))
    })
    worker.once('error', reject)
  })
}
