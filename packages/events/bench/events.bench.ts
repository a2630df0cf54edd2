// Event fan-out benchmarks (protocol: scripts/bench.mjs). Figures are noisy on a shared machine.
import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createEventBus, createSseStream, envelopeToSseMessage } from '../src/index'
import type { EventBus, Subscription } from '../src/index'
import type { BenchResult } from '../../../scripts/bench-protocol'

const SUBSCRIBERS = 1_000
const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const heapUsed = async () => {
  for (let i = 0; i < 3; i++) {
    gc()
    await tick()
  }
  return process.memoryUsage().heapUsed
}

const publishBatch = (bus: EventBus, from: number, count: number) => {
  for (let i = from; i < from + count; i++)
    bus.publish('entries_created', { entries: [{ path: `/dir/${i % 100}/file-${i}.json` }] })
}

/** Subscribers that drain their queues as fast as they are woken. */
const consumeAll = (subs: Subscription[], onBatch: (index: number, n: number) => void) =>
  subs.map(async (sub, index) => {
    for (;;) {
      const batch = await sub.take()
      if (batch.length === 0) return
      onBatch(index, batch.length)
    }
  })

async function fanOut(): Promise<BenchResult[]> {
  const total = 50_000
  const burst = 200
  const bus = createEventBus({ queueSize: burst * 2 })
  const subs = Array.from({ length: SUBSCRIBERS }, () => bus.subscribe())
  let delivered = 0
  const done = consumeAll(subs, (_, n) => (delivered += n))
  const start = performance.now()
  for (let sent = 0; sent < total; sent += burst) {
    publishBatch(bus, sent, burst)
    await tick()
  }
  while (delivered < total * SUBSCRIBERS) await tick()
  const seconds = (performance.now() - start) / 1000
  bus.close()
  await Promise.all(done)
  return [
    {
      name: 'bus: events/s fanned out to 1,000 subscribers',
      value: total / seconds,
      unit: 'events/s',
      target: 1_000,
      better: 'higher',
      note: `${Math.round((total * SUBSCRIBERS) / seconds).toLocaleString('en-US')} deliveries/s, no filters`,
    },
  ]
}

async function fanOutFiltered(): Promise<BenchResult[]> {
  const total = 20_000
  const burst = 200
  const bus = createEventBus({ queueSize: burst * 2 })
  // Every subscriber scoped to a tenth of the tree, with a type filter and a canRead check.
  const subs = Array.from({ length: SUBSCRIBERS }, (_, i) =>
    bus.subscribe({
      events: ['entries_created', 'entries_deleted'],
      pathPrefix: `/dir/${i % 10}`,
      canRead: (path) => !path.endsWith('7.json'),
    }),
  )
  let delivered = 0
  const done = consumeAll(subs, (_, n) => (delivered += n))
  const start = performance.now()
  for (let sent = 0; sent < total; sent += burst) {
    publishBatch(bus, sent, burst)
    await tick()
  }
  await tick()
  const seconds = (performance.now() - start) / 1000
  bus.close()
  await Promise.all(done)
  return [
    {
      name: 'bus with filters + canRead: events/s to 1,000 subscribers',
      value: total / seconds,
      unit: 'events/s',
      better: 'higher',
      note: `${delivered.toLocaleString('en-US')} deliveries after filtering`,
    },
  ]
}

async function sseFanOut(): Promise<BenchResult[]> {
  const total = 10_000
  const burst = 100
  const bus = createEventBus({ queueSize: burst * 4 })
  let bytes = 0
  const readers = Array.from({ length: SUBSCRIBERS }, async () => {
    const stream = createSseStream({ source: bus.subscribe(), encode: envelopeToSseMessage })
    const reader = stream.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      bytes += value.byteLength
    }
  })
  const expected = await (async () => {
    const probe = createEventBus()
    let size = 0
    for (let i = 0; i < total; i++)
      size += JSON.stringify(
        probe.publish('entries_created', { entries: [{ path: `/dir/${i % 100}/file-${i}.json` }] }),
      ).length
    return size
  })()
  const start = performance.now()
  for (let sent = 0; sent < total; sent += burst) {
    publishBatch(bus, sent, burst)
    await tick()
  }
  while (bytes < expected * SUBSCRIBERS) await tick()
  const seconds = (performance.now() - start) / 1000
  bus.close()
  await Promise.all(readers)
  return [
    {
      name: 'SSE encoder: events/s to 1,000 streams (in process)',
      value: total / seconds,
      unit: 'events/s',
      better: 'higher',
      note: `${Math.round(bytes / seconds / 2 ** 20)} MiB/s of frames`,
    },
  ]
}

async function latency(): Promise<BenchResult[]> {
  const rate = 1_000 // events/s
  const seconds = 3
  const bus = createEventBus()
  const subs = Array.from({ length: SUBSCRIBERS }, () => bus.subscribe())
  const sentAt: number[] = []
  const lags: number[] = []
  const done = subs.map(async (sub) => {
    for (;;) {
      const batch = await sub.take()
      if (batch.length === 0) return
      const now = performance.now()
      for (const event of batch) {
        const seq = Number(event.event_id.slice(event.event_id.lastIndexOf('-') + 1))
        lags.push(now - (sentAt[seq] ?? now))
      }
    }
  })
  const start = performance.now()
  let published = 0
  while (published < rate * seconds) {
    const due = Math.floor(((performance.now() - start) / 1000) * rate)
    while (published < Math.min(due, rate * seconds)) {
      sentAt[published + 1] = performance.now()
      publishBatch(bus, published++, 1)
    }
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  await tick()
  bus.close()
  await Promise.all(done)
  lags.sort((a, b) => a - b)
  const p = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? 0
  return [
    {
      name: 'bus delivery latency p99, 1,000 subscribers at 1,000 events/s',
      value: p(0.99),
      unit: 'ms',
      target: 100,
      better: 'lower',
      note: `p50 ${p(0.5).toFixed(2)} ms over ${lags.length.toLocaleString('en-US')} deliveries`,
    },
  ]
}

async function memory(): Promise<BenchResult[]> {
  const count = 10_000
  const bus = createEventBus({ replaySize: 0 })
  const before = await heapUsed()
  const subs = Array.from({ length: count }, () =>
    bus.subscribe({ events: ['entries_created'], canRead: (path) => path.length > 0 }),
  )
  const idle = ((await heapUsed()) - before) / count
  // Then 100 events queued in each (shared envelopes; each queue holds references).
  publishBatch(bus, 0, 100)
  const queued = ((await heapUsed()) - before) / count
  const held = subs.reduce((sum, sub) => sum + sub.pending, 0)
  bus.close()
  return [
    { name: 'memory per idle subscriber', value: idle, unit: 'bytes', better: 'lower' },
    {
      name: 'memory per subscriber with 100 queued events',
      value: queued,
      unit: 'bytes',
      better: 'lower',
      note: `${held.toLocaleString('en-US')} queued references`,
    },
  ]
}

/** The benchmarks of `@svcdb/events`. */
export const benchmarks = [
  { name: 'fan-out', run: fanOut },
  { name: 'fan-out-filtered', run: fanOutFiltered },
  { name: 'sse-fan-out', run: sseFanOut },
  { name: 'delivery-latency', run: latency },
  { name: 'memory-per-subscriber', run: memory },
]
