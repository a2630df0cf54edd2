import { Worker } from 'node:worker_threads'

/** Results of items `[from, from + out.length)` of message `id`; `done` on the last slice. */
interface WorkerReply {
  id: number
  from: number
  out: (Uint8Array | null)[]
  errors: Record<number, string>
  done: boolean
}

/** One chunk waiting for the worker: its bytes and who waits for the result. */
interface Job {
  bytes: Uint8Array
  options: { level: number; windowBits: number }
  resolve: (out: Uint8Array) => void
  reject: (err: unknown) => void
}

/**
 * How long the worker deflates before it sends what it has: the event loop then stores those
 * chunks (and reads the next files) while the worker goes on, instead of the two taking turns.
 */
const REPLY_SLICE_MS = 1

// Plain JavaScript run by `new Worker(..., { eval: true })`: no file to locate after bundling.
// A reply carries the results of items [from, from + out.length); a failed item is null, with
// its message in `errors`.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { deflateRawSync } = require('node:zlib')
const { performance } = require('node:perf_hooks')
parentPort.on('message', ({ id, items }) => {
  let out = []
  let errors = {}
  let from = 0
  let since = performance.now()
  for (let i = 0; i < items.length; i++) {
    const { bytes, options } = items[i]
    try {
      out.push(new Uint8Array(deflateRawSync(bytes, options)))
    } catch (err) {
      out.push(null)
      errors[i - from] = String((err && err.message) || err)
    }
    const last = i === items.length - 1
    if (last || performance.now() - since >= ${REPLY_SLICE_MS}) {
      const buffers = out.filter((b) => b !== null).map((b) => b.buffer)
      parentPort.postMessage({ id, from, out, errors, done: last }, buffers)
      out = []
      errors = {}
      from = i + 1
      since = performance.now()
    }
  }
})
`

/**
 * Raw DEFLATE of small chunks in one long-lived worker thread, many chunks a message.
 *
 * Why: `zlib.deflateRaw` per small chunk costs a stream, a thread-pool hop and a wake-up each:
 * measured on 20,000 text chunks of 1–16 KiB, 187 µs of CPU a chunk (30 µs of it on the event
 * loop), against 82 µs for `deflateRawSync`. Done in place, that 82 µs lands on the event
 * loop; in this worker the event loop pays ≈ 5 µs a chunk (a structured copy and a message
 * shared by every chunk staged in the same turn) and the deflating runs on the other core.
 *
 * The worker is started on first use and unreferenced while no job is waiting, so it never
 * keeps a process alive. If it fails, every waiting job is rejected and later ones fall back
 * to `null` (the caller then uses the thread pool).
 */
function createDeflateWorker() {
  let worker: Worker | undefined
  let broken = false
  let nextId = 0
  let queued: Job[] = []
  const waiting = new Map<number, Job[]>()

  const fail = (err: unknown) => {
    broken = true
    worker = undefined
    for (const jobs of waiting.values()) for (const job of jobs) job.reject(err)
    waiting.clear()
  }
  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true })
    started.on('message', (reply: WorkerReply) => {
      const jobs = waiting.get(reply.id) ?? []
      if (reply.done) waiting.delete(reply.id)
      if (waiting.size === 0) started.unref()
      reply.out.forEach((out, i) => {
        const job = jobs[reply.from + i]
        if (job === undefined) return
        if (out !== null) job.resolve(out)
        else job.reject(new Error(`deflate failed: ${reply.errors[i] ?? 'no output'}`))
      })
    })
    started.on('error', fail)
    started.on('exit', (code) => fail(new Error(`the deflate worker exited (${code})`)))
    started.unref()
    return started
  }
  const send = () => {
    const jobs = queued
    queued = []
    if (broken) {
      for (const job of jobs) job.reject(new Error('the deflate worker is not running'))
      return
    }
    worker ??= start()
    const id = nextId++
    waiting.set(id, jobs)
    // Referenced while a job waits: a process must not exit under an unfinished write.
    worker.ref()
    worker.postMessage({ id, items: jobs.map(({ bytes, options }) => ({ bytes, options })) })
  }

  return {
    /** DEFLATEs `bytes` in the worker, or returns `null` once the worker has failed. */
    deflateRaw(
      bytes: Uint8Array,
      options: { level: number; windowBits: number },
    ): Promise<Uint8Array> | null {
      if (broken) return null
      return new Promise((resolve, reject) => {
        // Every chunk staged in this turn of the event loop travels in one message.
        if (queued.length === 0) setImmediate(send)
        queued.push({ bytes, options, resolve, reject })
      })
    },
  }
}

/** The process's deflate worker for small chunks (see {@link createDeflateWorker}). */
export const smallChunkDeflater = createDeflateWorker()
