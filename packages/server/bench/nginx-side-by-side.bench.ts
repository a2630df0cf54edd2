import type { Benchmark, BenchResult } from '../../../scripts/bench-protocol'
import { peerTool } from '../../../scripts/peer-tool'
import { startServerProcess } from '../test/kit/server-process'
import { httpScenarios } from './http-scenarios'
import { generateLoad } from './load-generator'
import { startCeilingServer } from './ceiling-server'
import { startNginx } from './nginx-server'
import { residentMegabytes } from './process-memory'

/** Seconds of each load: long enough for caches and memory to reach their steady state. */
const DURATION_MS = 6_000

export const benchmarks: Benchmark[] = [
  {
    name: 'files over HTTP, svcdb (durable) beside nginx (plain files, no fsync)',
    async run() {
      const nginxTool = await peerTool('nginx', 'nginx-core')
      // The built server in its own process, as users run it: its memory is then its own.
      const svcdb = await startServerProcess(['--auth', 'disabled'])
      const svcdbUrl = new URL(svcdb.url)
      const nginx = 'path' in nginxTool ? await startNginx(nginxTool.path) : undefined
      // Bare node:http, bodies in memory: how fast Node.js itself answers on this machine.
      const ceiling = await startCeilingServer()
      const skipped =
        'skipped' in nginxTool ? `nginx rows skipped: ${nginxTool.skipped}` : undefined
      try {
        const rows: BenchResult[] = [
          {
            name: 'svcdb server RSS at start',
            value: await residentMegabytes(svcdb.pid),
            unit: 'MB',
            better: 'lower',
          },
        ]
        // Each load runs on svcdb then at once on nginx, so both see the machine in one state.
        for (const scenario of httpScenarios()) {
          const load = (url: URL) =>
            generateLoad({ url, durationMs: DURATION_MS, ...scenario.spec })
          const ours = await load(svcdbUrl)
          rows.push(
            {
              name: `${scenario.name}: svcdb`,
              value: ours,
              unit: scenario.unit,
              ...(skipped === undefined ? {} : { note: skipped }),
            },
            {
              name: `${scenario.name}: svcdb server RSS after`,
              value: await residentMegabytes(svcdb.pid),
              unit: 'MB',
              better: 'lower',
              target: 300,
            },
          )
          const bare = await load(ceiling.url)
          rows.push(
            {
              name: `${scenario.name}: bare node:http (memory only)`,
              value: bare,
              unit: scenario.unit,
            },
            { name: `${scenario.name}: svcdb ÷ bare node:http`, value: ours / bare, unit: '×' },
          )
          if (nginx === undefined) continue
          const theirs = await load(nginx.url)
          rows.push(
            { name: `${scenario.name}: nginx`, value: theirs, unit: scenario.unit },
            {
              name: `${scenario.name}: svcdb ÷ nginx`,
              value: ours / theirs,
              unit: '×',
              target: scenario.target,
            },
            { name: `${scenario.name}: bare node:http ÷ nginx`, value: bare / theirs, unit: '×' },
          )
        }
        return rows
      } finally {
        await nginx?.close()
        await ceiling.close()
        await svcdb.dispose()
      }
    },
  },
]
