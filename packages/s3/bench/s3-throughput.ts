// Objects per second for PUT and GET of small objects through createS3BlobStore, against the
// S3 of `scripts/dev-services.sh` (in a bucket of its own, deleted afterwards):
//
//   set -a; eval "$(scripts/dev-services.sh up)"; set +a
//   pnpm exec tsx packages/s3/bench/s3-throughput.ts [objects=1000] [KiB=64] [concurrency=16]
import { createHash, randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { createS3BlobStore } from '../src/index'
import { createTestBucket } from '../test/cluster-s3'

const [objects = 1000, kib = 64, concurrency = 16] = process.argv.slice(2).map(Number)

/** Runs `task(i)` for i in [0, count) with `concurrency` at a time; returns seconds taken. */
async function timed(count: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++)
    }),
  )
  return (performance.now() - started) / 1000
}

const bucket = await createTestBucket()
const store = createS3BlobStore(bucket.options)
try {
  const bodies = Array.from({ length: objects }, () => randomBytes(kib * 1024))
  const keyOf = (i: number): string => {
    const hex = createHash('sha256')
      .update(bodies[i] as Uint8Array)
      .digest('hex')
    return `chunks/${hex.slice(0, 2)}/${hex}`
  }
  const put = await timed(objects, (i) => store.put(keyOf(i), bodies[i] as Uint8Array))
  let mismatches = 0
  const get = await timed(objects, async (i) => {
    const got = await store.get(keyOf(i))
    if (got === undefined || Buffer.compare(got, bodies[i] as Uint8Array) !== 0) mismatches += 1
  })
  const mb = (objects * kib) / 1024
  const line = (name: string, s: number): string =>
    `${name} ${(objects / s).toFixed(0)} obj/s (${(mb / s).toFixed(1)} MiB/s, ${s.toFixed(2)} s)`
  console.log(`${objects} × ${kib} KiB, concurrency ${concurrency}`)
  console.log(line('PUT', put))
  console.log(line('GET', get))
  console.log(`mismatches ${mismatches}`)
  if (mismatches > 0) process.exitCode = 1
} finally {
  await store.close()
  await bucket.remove()
}
