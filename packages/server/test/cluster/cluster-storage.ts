import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3'
import { startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

const run = promisify(execFile)

function required(name: string): string {
  const value = process.env[name]
  if (value === undefined || value === '')
    throw new Error(`${name} is not set: run under pnpm test:cluster (scripts/dev-services.sh)`)
  return value
}

/** A database and a bucket of a test's own, as `--meta` and `--chunks` URLs. */
export interface ClusterStorage {
  meta: string
  chunks: string
  /** Drops the database, and deletes the bucket with every object in it. */
  dispose(): Promise<void>
}

/** The cluster services' S3, as an administrator (bucket creation and removal). */
function s3Admin(): S3Client {
  return new S3Client({
    endpoint: required('S3_ENDPOINT'),
    region: required('S3_REGION'),
    credentials: {
      accessKeyId: required('AWS_ACCESS_KEY_ID'),
      secretAccessKey: required('AWS_SECRET_ACCESS_KEY'),
    },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
}

async function removeBucket(admin: S3Client, bucket: string): Promise<void> {
  for (;;) {
    const page = await admin.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1000 }))
    const objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []))
    if (objects.length === 0) break
    await admin.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }),
    )
  }
  await admin.send(new DeleteBucketCommand({ Bucket: bucket }))
}

/**
 * Creates a fresh PostgreSQL database and a fresh bucket on the cluster services of
 * `scripts/dev-services.sh` (`DATABASE_URL`, `S3_*`, `AWS_*`), so test runs never see each
 * other's data.
 */
export async function createClusterStorage(): Promise<ClusterStorage> {
  const id = randomBytes(6).toString('hex')
  const admin = required('DATABASE_URL')
  const database = `svcdb_${id}`
  const bucket = `svcdb-run-${id}`
  const s3 = s3Admin()
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }))
    await run('psql', [admin, '-qc', `CREATE DATABASE ${database}`])
  } catch (err) {
    s3.destroy()
    throw err
  }
  const endpoint = encodeURIComponent(required('S3_ENDPOINT'))
  return {
    meta: Object.assign(new URL(admin), { pathname: `/${database}` }).toString(),
    chunks: `s3://${bucket}?endpoint=${endpoint}&region=${required('S3_REGION')}`,
    async dispose() {
      try {
        await run('psql', [admin, '-qc', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`])
        await removeBucket(s3, bucket)
      } finally {
        s3.destroy()
      }
    },
  }
}

/** Starts a server node on `storage` with `--node-id nodeId` (the caller disposes of it). */
export function startClusterNode(storage: ClusterStorage, nodeId: number): Promise<ServerProcess> {
  return startServerProcess([
    '--meta',
    storage.meta,
    '--chunks',
    storage.chunks,
    '--node-id',
    String(nodeId),
  ])
}
