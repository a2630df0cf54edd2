import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'

const run = promisify(execFile)

function required(name: string): string {
  const value = process.env[name]
  if (value === undefined || value === '')
    throw new Error(`${name} is not set: run under pnpm test:cluster (scripts/dev-services.sh)`)
  return value
}

/** A database and an S3 prefix of a test's own, as `--meta` and `--chunks` URLs. */
export interface ClusterStorage {
  meta: string
  chunks: string
  /** Drops the database (its S3 prefix is left to the bucket's owner: dev-services.sh down). */
  dispose(): Promise<void>
}

/**
 * Creates a fresh PostgreSQL database on the cluster services of `scripts/dev-services.sh`
 * (`DATABASE_URL`, `S3_*`), so test runs never see each other's data.
 */
export async function createClusterStorage(): Promise<ClusterStorage> {
  const id = randomBytes(6).toString('hex')
  const admin = required('DATABASE_URL')
  const database = `svcdb_${id}`
  await run('psql', [admin, '-qc', `CREATE DATABASE ${database}`])
  const endpoint = encodeURIComponent(required('S3_ENDPOINT'))
  return {
    meta: Object.assign(new URL(admin), { pathname: `/${database}` }).toString(),
    chunks: `s3://${required('S3_BUCKET')}/run-${id}?endpoint=${endpoint}&region=${required('S3_REGION')}`,
    async dispose() {
      await run('psql', [admin, '-qc', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`])
    },
  }
}
