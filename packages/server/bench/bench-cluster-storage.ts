import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { createS3BlobStore } from '@svcdb/s3'

const run = promisify(execFile)

/** A bench's own PostgreSQL database and S3 prefix, and what a server needs to reach them. */
export interface BenchClusterStorage {
  /** `--meta` and `--chunks`. */
  args: string[]
  /** The S3 credentials, for the server's environment. */
  env: Record<string, string>
  /** Drops the database and deletes the prefix's objects. */
  dispose(): Promise<void>
}

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

/**
 * Creates a database and an S3 prefix of the bench's own on the development services, or says
 * why it cannot (the services are not running).
 */
export async function createBenchClusterStorage(): Promise<BenchClusterStorage | string> {
  const services = await clusterServices()
  if (typeof services === 'string') return services
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
  return {
    args: ['--meta', meta, '--chunks', chunks],
    env,
    async dispose() {
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
    },
  }
}
