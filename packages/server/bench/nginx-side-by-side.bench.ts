import type { Benchmark, BenchResult } from '../../../scripts/bench-protocol'
import { peerTool } from '../../../scripts/peer-tool'
import { DURATION_MS, run } from './bench-server'
import { httpScenarios } from './http-scenarios'
import { generateLoad } from './load-generator'
import { startNginx } from './nginx-server'

export const benchmarks: Benchmark[] = [
  {
    name: 'files over HTTP, svcdb (durable) beside nginx (plain files, no fsync)',
    async run() {
      const nginxTool = await peerTool('nginx', 'nginx-core')
      const svcdb = await run({ auth: { kind: 'disabled' } })
      const nginx = 'path' in nginxTool ? await startNginx(nginxTool.path) : undefined
      const skipped =
        'skipped' in nginxTool ? `nginx rows skipped: ${nginxTool.skipped}` : undefined
      try {
        const rows: BenchResult[] = []
        // Each load runs on svcdb then at once on nginx, so both see the machine in one state.
        for (const scenario of httpScenarios()) {
          const load = (url: URL) =>
            generateLoad({ url, durationMs: DURATION_MS, ...scenario.spec })
          const ours = await load(svcdb.url)
          rows.push({
            name: `${scenario.name}: svcdb`,
            value: ours,
            unit: scenario.unit,
            ...(skipped === undefined ? {} : { note: skipped }),
          })
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
          )
        }
        return rows
      } finally {
        await nginx?.close()
        await svcdb.close()
      }
    },
  },
]
