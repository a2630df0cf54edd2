import type { Benchmark, BenchResult } from '../../../scripts/bench-protocol'
import { startServerProcess } from '../test/kit/server-process'
import { createBenchClusterStorage } from './bench-cluster-storage'
import { httpScenarios } from './http-scenarios'
import type { HttpScenario } from './http-scenarios'
import { generateLoad } from './load-generator'

const DURATION_MS = 6_000

/**
 * The scenario split over two nodes, half the connections each. Each node writes files of its
 * own (bodies that differ, so nothing deduplicates across nodes) and reads the other's.
 */
function splitLoad(scenario: HttpScenario, urls: [string, string]): Promise<number[]> {
  const { spec } = scenario
  const half = Math.max(1, Math.floor(spec.concurrency / 2))
  return Promise.all(
    urls.map((url, node) => {
      const own = node === 0 ? 'a/' : 'b/'
      const other = node === 0 ? 'b/' : 'a/'
      let body = spec.body
      if (body !== undefined && node === 1) {
        body = Uint8Array.from(body)
        body[body.length - 1] = (body[body.length - 1] ?? 0) ^ 0xff
      }
      return generateLoad({
        ...spec,
        url: new URL(url),
        durationMs: DURATION_MS,
        concurrency: half,
        pathPrefix: spec.pathPrefix + (spec.method === 'PUT' ? own : other),
        ...(body === undefined ? {} : { body }),
      })
    }),
  )
}

export const benchmarks: Benchmark[] = [
  {
    name: 'files over HTTP: the embedded default, one node and two nodes on PostgreSQL + S3 (Ceph RGW)',
    async run() {
      const storage = await createBenchClusterStorage()
      if (typeof storage === 'string')
        return [{ name: 'shared storage', value: 0, unit: 'skipped', note: storage }]
      const embedded = await startServerProcess(['--auth', 'disabled'])
      const nodes = await Promise.all(
        [1, 2].map((id) =>
          startServerProcess(
            ['--auth', 'disabled', ...storage.args, '--node-id', String(id)],
            undefined,
            {
              env: storage.env,
            },
          ),
        ),
      )
      const [a, b] = nodes as [(typeof nodes)[number], (typeof nodes)[number]]
      try {
        const rows: BenchResult[] = []
        for (const scenario of httpScenarios()) {
          const load = (url: string) =>
            generateLoad({ url: new URL(url), durationMs: DURATION_MS, ...scenario.spec })
          const ours = await load(embedded.url)
          const one = await load(a.url)
          const two = (await splitLoad(scenario, [a.url, b.url])).reduce((x, y) => x + y, 0)
          rows.push(
            { name: `${scenario.name}: embedded`, value: ours, unit: scenario.unit },
            { name: `${scenario.name}: one node`, value: one, unit: scenario.unit },
            { name: `${scenario.name}: two nodes`, value: two, unit: scenario.unit },
            { name: `${scenario.name}: one node ÷ embedded`, value: one / ours, unit: '×' },
            { name: `${scenario.name}: two nodes ÷ one node`, value: two / one, unit: '×' },
          )
        }
        return rows
      } finally {
        for (const node of nodes) await node.dispose()
        await embedded.dispose()
        await storage.dispose()
      }
    },
  },
]
