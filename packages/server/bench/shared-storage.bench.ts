import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { createS3BlobStore } from '@svcdb/s3'
import type { Benchmark, BenchResult } from '../../../scripts/bench-protocol'
import { startServerProcess } from '../test/kit/server-process'
import { httpScenarios } from './http-scenarios'
import { generateLoad } from './load-generator'

const run = promisify(execFile)
const DURATION_MS = 6_000

/** The services of `scripts/dev-services.sh`, from the environment or from the script. */
async function clusterServices(): Promise<Record<string, string> | string> {
  const fromEnv = ['DATABASE_URL', 'S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION']
  if (fromEnv.every((name) => process.env[name]))
    return Object.fromEntries(fromEnv.map((name) => [name, process.env[name] as string]))
  try {
    const { stdout } = await run('bash', ['scripts/dev-services.sh', 'env'])
    return Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    )
  } catch {
    return 'the cluster services are not running (scripts/dev-services.sh up)'
  }
}

export const benchmarks: Benchmark[] = [
  {
    name: 'files over HTTP, one node on PostgreSQL + S3 (Ceph RGW) beside the embedded default',
    async run() {
      const services = await clusterServices()
      if (typeof services === 'string')
        return [{ name: 'shared storage', value: 0, unit: 'skipped', note: services }]
      const id = randomBytes(4).toString('hex')
      const admin = services.DATABASE_URL as string
      const database = `svcdb_bench_${id}`
      await run('psql', [admin, '-qc', `CREATE DATABASE ${database}`])
      const meta = Object.assign(new URL(admin), { pathname: `/${database}` }).toString()
      const chunks = `s3://${services.S3_BUCKET}/bench-${id}?endpoint=${encodeURIComponent(
        services.S3_ENDPOINT as string,
      )}&region=${services.S3_REGION}`
      const env = {
        AWS_ACCESS_KEY_ID: services.AWS_ACCESS_KEY_ID ?? process.env.AWS_ACCESS_KEY_ID ?? '',
        AWS_SECRET_ACCESS_KEY:
          services.AWS_SECRET_ACCESS_KEY ?? process.env.AWS_SECRET_ACCESS_KEY ?? '',
      }
      const embedded = await startServerProcess(['--auth', 'disabled'])
      const shared = await startServerProcess(
        ['--auth', 'disabled', '--meta', meta, '--chunks', chunks],
        undefined,
        { env },
      )
      try {
        const rows: BenchResult[] = []
        for (const scenario of httpScenarios()) {
          const load = (url: string) =>
            generateLoad({ url: new URL(url), durationMs: DURATION_MS, ...scenario.spec })
          const ours = await load(embedded.url)
          const theirs = await load(shared.url)
          rows.push(
            { name: `${scenario.name}: embedded`, value: ours, unit: scenario.unit },
            { name: `${scenario.name}: PostgreSQL + S3`, value: theirs, unit: scenario.unit },
            {
              name: `${scenario.name}: PostgreSQL + S3 ÷ embedded`,
              value: theirs / ours,
              unit: '×',
            },
          )
        }
        return rows
      } finally {
        await shared.dispose()
        await embedded.dispose()
        await run('psql', [admin, '-qc', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`])
        // The bench's chunks would otherwise fill the development cluster's small disk.
        const blobs = createS3BlobStore({
          bucket: services.S3_BUCKET as string,
          endpoint: services.S3_ENDPOINT as string,
          region: services.S3_REGION as string,
          prefix: `bench-${id}/`,
          credentials: {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
          },
        })
        const keys: string[] = []
        for await (const blob of blobs.list('')) keys.push(blob.key)
        await blobs.delete(keys)
        await blobs.close()
      }
    },
  },
]
