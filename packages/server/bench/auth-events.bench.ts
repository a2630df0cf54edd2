import { Worker } from 'node:worker_threads'
import type { Benchmark } from '../../../scripts/bench-protocol'
import { hammer, run, token } from './bench-server'

/** Worker code: opens N event streams, records each event's delivery latency. */
const SUBSCRIBER_SCRIPT = `
const { workerData, parentPort } = require('node:worker_threads')
const http = require('node:http')
const agent = new http.Agent({ keepAlive: true, maxSockets: workerData.subscribers })
const latencies = []
let open = 0
for (let i = 0; i < workerData.subscribers; i++) {
  http.get(new URL('/system/events?events=entries_created', workerData.url), { agent }, (res) => {
    res.setEncoding('utf8')
    let buffer = ''
    res.on('data', (text) => {
      buffer += text
      let end
      while ((end = buffer.indexOf('\\n\\n')) >= 0) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const at = frame.indexOf('"timestamp":')
        if (at >= 0) latencies.push(Date.now() - Number(frame.slice(at + 12, frame.indexOf(',', at))))
      }
    })
    if (++open === workerData.subscribers) parentPort.postMessage('ready')
  })
}
parentPort.on('message', () => parentPort.postMessage({ latencies }))
`

export const benchmarks: Benchmark[] = [
  {
    name: 'authentication cost over HTTP',
    async run() {
      const open = await run({ auth: { kind: 'disabled' } })
      const secured = await run({ auth: { kind: 'self-contained' } })
      try {
        const apiKey = (await secured.services.auth.ensureRootKey()).rootApiKey as string
        const bearer = await token(secured.url, apiKey)
        const plainRequest = () => ({ method: 'GET', path: '/system/stats' })
        const authedRequest = () => ({
          method: 'GET',
          path: '/system/stats',
          headers: { authorization: `Bearer ${bearer}` },
        })
        // Warm both paths up first (JIT), then alternate, keeping the better of two runs each.
        await hammer(open.url, plainRequest, 1000)
        await hammer(secured.url, authedRequest, 1000)
        let plain = 0
        let authed = 0
        for (let round = 0; round < 2; round++) {
          plain = Math.max(plain, await hammer(open.url, plainRequest))
          authed = Math.max(authed, await hammer(secured.url, authedRequest))
        }
        const body = JSON.stringify({ api_key: apiKey })
        const exchanges = await hammer(secured.url, () => ({
          method: 'POST',
          path: '/auth/token',
          headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
          body,
        }))
        return [
          { name: 'GET /system/stats, no auth', value: plain, unit: 'req/s' },
          { name: 'GET /system/stats, Bearer token', value: authed, unit: 'req/s' },
          {
            name: 'authenticated overhead',
            value: (100 * (plain - authed)) / plain,
            unit: '%',
            target: 15,
            better: 'lower',
          },
          {
            name: 'token exchanges over HTTP (durable)',
            value: exchanges,
            unit: 'req/s',
            target: 2000,
          },
        ]
      } finally {
        await open.close()
        await secured.close()
      }
    },
  },
  {
    name: 'event stream fan-out over HTTP',
    async run() {
      const server = await run({ auth: { kind: 'disabled' } })
      const SUBSCRIBERS = 1000
      const SECONDS = 5
      // Subscribers live in a worker thread: parsing a million frames a second in the
      // server's own thread would measure the client, not the server.
      const worker = new Worker(SUBSCRIBER_SCRIPT, {
        eval: true,
        workerData: { url: server.url.href, subscribers: SUBSCRIBERS },
      })
      try {
        await new Promise<void>((resolve, reject) => {
          worker.once('message', () => resolve())
          worker.once('error', reject)
        })
        const rssBefore = process.memoryUsage().rss
        const { db } = server.services
        for (let i = 0; i < SECONDS * 1000; i += 10) {
          const started = Date.now()
          await Promise.all(
            Array.from({ length: 10 }, (_, j) => db.writeFile(`/load/${(i + j) % 500}`, 'x')),
          )
          const spare = 10 - (Date.now() - started)
          if (spare > 0) await new Promise((resolve) => setTimeout(resolve, spare))
        }
        const rssGrowth = (process.memoryUsage().rss - rssBefore) / 1048576
        await new Promise((resolve) => setTimeout(resolve, 1000))
        worker.postMessage('report')
        const { latencies } = await new Promise<{ latencies: number[] }>((resolve) =>
          worker.once('message', resolve),
        )
        const sorted = latencies.sort((a, b) => a - b)
        const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? Number.NaN
        return [
          {
            name: `SSE p99 delivery latency, ${SUBSCRIBERS} subscribers, ~1,000 events/s`,
            value: p99,
            unit: 'ms',
            target: 100,
            better: 'lower',
          },
          {
            name: 'SSE events delivered / published',
            value: latencies.length / (SUBSCRIBERS * SECONDS * 1000),
            unit: 'ratio',
          },
          {
            name: 'server RSS growth over the run',
            value: rssGrowth,
            unit: 'MiB',
            better: 'lower',
          },
        ]
      } finally {
        await worker.terminate()
        await server.close()
      }
    },
  },
]
