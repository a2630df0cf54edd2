import { randomBytes } from 'node:crypto'
import { decodeSseStream } from '@svcdb/events/sse'
import type { Benchmark, BenchResult } from '../../../scripts/bench-protocol'
import { startServerProcess } from '../test/kit/server-process'
import type { ServerProcess } from '../test/kit/server-process'

const MiB = 1024 * 1024

const randomBody = (n: number) => new Uint8Array(randomBytes(n))
const INITIAL_FILES = 64
const INITIAL_FILE_BYTES = 4 * MiB
const LATENCY_SAMPLES = 40
const BURST_FILES = 200

async function put(url: string, path: string, body: Uint8Array<ArrayBuffer>): Promise<string> {
  const res = await fetch(`${url}/files/${path}`, { method: 'PUT', body })
  if (res.status !== 201) throw new Error(`PUT ${path}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { version: string }).version
}

async function post(url: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  })
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`)
  return res.json()
}

async function cursorOf(url: string): Promise<string | null> {
  const res = await fetch(`${url}/system/peers`)
  const { items } = (await res.json()) as { items: { cursor: string | null }[] }
  return items[0]?.cursor ?? null
}

/** Resolves once B's cursor for its peer is `version`, with the milliseconds it took. */
async function waitForCursor(b: string, version: string, since: number): Promise<number> {
  for (;;) {
    if ((await cursorOf(b)) === version) return performance.now() - since
    if (performance.now() - since > 300_000) throw new Error('replication did not converge')
    await new Promise((r) => setTimeout(r, 2))
  }
}

/** The paths B announces as created, in order, from its event stream. */
async function createdOnB(b: string, signal: AbortSignal): Promise<AsyncIterator<string>> {
  const res = await fetch(`${b}/system/events?events=entries_created`, { signal })
  if (res.body === null) throw new Error('no event stream')
  const events = decodeSseStream(res.body)
  return (async function* () {
    for await (const event of events) {
      const { payload } = JSON.parse(event.data) as { payload: { entries: { path: string }[] } }
      for (const entry of payload.entries) yield entry.path
    }
  })()
}

const covers = (announced: string, path: string) =>
  announced === path || path.startsWith(`${announced}/`)

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number

export const benchmarks: Benchmark[] = [
  {
    name: 'replication between two deployments (--peer, loopback)',
    async run() {
      const rows: BenchResult[] = []
      const servers: ServerProcess[] = []
      try {
        const a = await startServerProcess(['--auth', 'disabled'])
        servers.push(a)
        const b = await startServerProcess([
          '--auth',
          'disabled',
          '--peer',
          `a=${a.url}`,
          '--peer-interval',
          '15s',
        ])
        servers.push(b)
        // Staged on a fork of A, then promoted: B sees the whole batch arrive in one HEAD move.
        await post(a.url, '/versions/forks', { name: 'staging' })
        for (let i = 0; i < INITIAL_FILES; i++)
          await put(a.url, `initial/${i}.bin?fork=staging`, randomBody(INITIAL_FILE_BYTES))
        const started = performance.now()
        const { head } = (await post(a.url, '/versions/forks/staging/promote')) as { head: string }
        const pullMs = await waitForCursor(b.url, head, started)
        const bytes = INITIAL_FILES * INITIAL_FILE_BYTES
        rows.push({
          name: `a pull of ${bytes / MiB} MiB (${INITIAL_FILES} random 4 MiB files in one HEAD move)`,
          value: bytes / MiB / (pullMs / 1000),
          unit: 'MB/s',
        })

        const latencies: number[] = []
        const stream = new AbortController()
        const created = await createdOnB(b.url, stream.signal)
        for (let i = 0; i < LATENCY_SAMPLES; i++) {
          const t0 = performance.now()
          await put(a.url, `latency/${i}.txt`, randomBody(512))
          for (;;) {
            const next = await created.next()
            if (next.done === true) throw new Error("B's event stream ended")
            // A move reports a new directory, not each entry in it.
            if (covers(next.value, `/latency/${i}.txt`)) break
          }
          latencies.push(performance.now() - t0)
        }
        stream.abort()
        latencies.sort((x, y) => x - y)
        rows.push(
          {
            name: 'a 512 B write on A announced on B, p50',
            value: percentile(latencies, 0.5),
            unit: 'ms',
            better: 'lower',
          },
          {
            name: 'a 512 B write on A announced on B, p95',
            value: percentile(latencies, 0.95),
            unit: 'ms',
            better: 'lower',
          },
        )

        const burstStart = performance.now()
        const writes: Promise<string>[] = []
        for (let i = 0; i < BURST_FILES; i++)
          writes.push(put(a.url, `burst/${i}.txt`, randomBody(4096)))
        await Promise.all(writes)
        // Every write answered, so HEAD now holds the whole burst.
        const headNow = await headOf(a.url)
        const burstMs = await waitForCursor(b.url, headNow, burstStart)
        rows.push({
          name: `${BURST_FILES} concurrent 4 KiB writes on A, all on B`,
          value: BURST_FILES / (burstMs / 1000),
          unit: 'files/s',
        })

        // The same 256 MiB written on both sides (B first): B's pull names every chunk as held,
        // so only A's tree pages travel. B's HEAD moved, so the pull makes a peer fork.
        const same = Array.from({ length: INITIAL_FILES }, () => randomBody(INITIAL_FILE_BYTES))
        for (const [i, body] of same.entries()) await put(b.url, `own/${i}.bin`, body)
        await post(a.url, '/versions/forks', { name: 'again' })
        for (const [i, body] of same.entries()) await put(a.url, `again/${i}.bin?fork=again`, body)
        const heldStart = performance.now()
        const again = (await post(a.url, '/versions/forks/again/promote')) as { head: string }
        const heldMs = await waitForCursor(b.url, again.head, heldStart)
        rows.push({
          name: `a pull of ${bytes / MiB} MiB whose chunks B holds (written there too)`,
          value: heldMs,
          unit: 'ms',
          better: 'lower',
        })
        return rows
      } finally {
        await Promise.all(servers.map((s) => s.dispose()))
      }
    },
  },
]

/** A's HEAD version, from the header of an export (its body is not read). */
async function headOf(url: string): Promise<string> {
  const res = await fetch(`${url}/versions/export`, { method: 'POST' })
  const version = res.headers.get('svcdb-version')
  await res.body?.cancel()
  if (version === null) throw new Error('no svcdb-version header')
  return version
}
