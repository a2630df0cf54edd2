import { randomBytes } from 'node:crypto'
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3'
import type { S3BlobStoreOptions } from '../src/index'

/** The S3 service of `scripts/dev-services.sh`, from the variables its `up` prints. */
export interface ClusterS3 {
  readonly endpoint: string
  readonly region: string
  readonly credentials: { accessKeyId: string; secretAccessKey: string }
}

/** Reads `S3_ENDPOINT`, `S3_REGION` and the `AWS_*` keys; fails with the fix when absent. */
export function clusterS3(): ClusterS3 {
  const { S3_ENDPOINT, S3_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY } = process.env
  if (!S3_ENDPOINT || !AWS_ACCESS_KEY_ID || !AWS_SECRET_ACCESS_KEY) {
    throw new Error(
      'cluster tests need S3: set -a; eval "$(scripts/dev-services.sh up)"; set +a, then run again',
    )
  }
  return {
    endpoint: S3_ENDPOINT,
    region: S3_REGION ?? 'us-east-1',
    credentials: { accessKeyId: AWS_ACCESS_KEY_ID, secretAccessKey: AWS_SECRET_ACCESS_KEY },
  }
}

/** A bucket made for one test, with the options to open a store on it. */
export interface TestBucket {
  readonly name: string
  readonly options: S3BlobStoreOptions
  /** Deletes every object in the bucket, then the bucket. */
  remove(): Promise<void>
}

/** Creates a bucket with a random name (`svcdb-test-<hex>`) on the cluster's S3. */
export async function createTestBucket(s3: ClusterS3 = clusterS3()): Promise<TestBucket> {
  const name = `svcdb-test-${randomBytes(6).toString('hex')}`
  const admin = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: s3.credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  try {
    await admin.send(new CreateBucketCommand({ Bucket: name }))
  } catch (err) {
    admin.destroy()
    throw err
  }
  return {
    name,
    options: {
      bucket: name,
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: s3.credentials,
    },
    async remove() {
      try {
        for (;;) {
          const page = await admin.send(new ListObjectsV2Command({ Bucket: name, MaxKeys: 1000 }))
          const objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []))
          if (objects.length === 0) break
          await admin.send(
            new DeleteObjectsCommand({ Bucket: name, Delete: { Objects: objects, Quiet: true } }),
          )
        }
        await admin.send(new DeleteBucketCommand({ Bucket: name }))
      } finally {
        admin.destroy()
      }
    },
  }
}
