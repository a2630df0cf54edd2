import { createHash } from 'node:crypto'
import { isEngineError } from '@svcdb/engine'
import type { BlobStore } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createS3BlobStore } from '../src/index'
import { createTestBucket } from './cluster-s3'
import type { TestBucket } from './cluster-s3'

/** Deterministic bytes that differ per seed (SHA-256 in counter mode). */
function bytesOf(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length)
  for (let at = 0, n = 0; at < length; at += 32, n += 1) {
    out.set(
      createHash('sha256')
        .update(`${seed}:${n}`)
        .digest()
        .subarray(0, length - at),
      at,
    )
  }
  return out
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

const sha = (bytes: Uint8Array | undefined): string =>
  bytes === undefined ? 'missing' : createHash('sha256').update(bytes).digest('hex')

describe('createS3BlobStore on Ceph RGW', () => {
  let bucket: TestBucket
  let store: BlobStore

  beforeEach(async () => {
    bucket = await createTestBucket()
    store = createS3BlobStore(bucket.options)
  })

  afterEach(async () => {
    await store.close()
    await bucket.remove()
  })

  it('puts and gets an 8 MiB object byte for byte, and a range from its middle', async () => {
    const big = bytesOf(8 * 1024 * 1024, 1)
    await store.put('big', big)
    expect(sha(await store.get('big'))).toBe(sha(big))
    const start = 5 * 1024 * 1024 + 3
    expect(sha(await store.get('big', { start, end: start + 100_000 }))).toBe(
      sha(big.subarray(start, start + 100_000)),
    )
    const [info] = await collect(store.list('big'))
    expect(info?.size).toBe(big.length)
  })

  it('takes 64 puts at once (twice its socket limit) and keeps each object apart', async () => {
    const keys = Array.from({ length: 64 }, (_, i) => `c/${String(i).padStart(2, '0')}`)
    await Promise.all(keys.map((key, i) => store.put(key, bytesOf(64 * 1024 + i, i))))
    const got = await Promise.all(keys.map((key) => store.get(key)))
    expect(got.map(sha)).toEqual(keys.map((_, i) => sha(bytesOf(64 * 1024 + i, i))))
    const listed = await collect(store.list('c/'))
    expect(listed.map((info) => info.key)).toEqual(keys)
  })

  it('fails with IO_ERROR naming the access problem when the secret is wrong, and never shows it', async () => {
    const secret = 'definitely-not-the-secret-0123456789'
    const wrong = createS3BlobStore({
      ...bucket.options,
      credentials: {
        accessKeyId: bucket.options.credentials?.accessKeyId ?? '',
        secretAccessKey: secret,
      },
      maxAttempts: 1,
    })
    try {
      const calls = [
        () => wrong.put('k', Uint8Array.of(1)),
        () => wrong.get('k'),
        () => collect(wrong.list('')),
      ]
      for (const call of calls) {
        const err = await call().then(
          () => expect.fail('wrong credentials were accepted'),
          (e: unknown) => e as Error,
        )
        expect(isEngineError(err, 'IO_ERROR')).toBe(true)
        expect(err.message).toMatch(/SignatureDoesNotMatch \(HTTP 403\): access refused/)
        expect(err.message).toContain(`s3://${bucket.name}/`)
        expect(err.message).not.toContain(secret)
      }
    } finally {
      await wrong.close()
    }
  })

  it('fails with IO_ERROR naming the access problem for an unknown access key', async () => {
    const wrong = createS3BlobStore({
      ...bucket.options,
      credentials: { accessKeyId: 'NOSUCHKEY', secretAccessKey: 'whatever-secret' },
      maxAttempts: 1,
    })
    try {
      const err = await wrong.put('k', Uint8Array.of(1)).then(
        () => expect.fail('an unknown key was accepted'),
        (e: unknown) => e as Error,
      )
      expect(isEngineError(err, 'IO_ERROR')).toBe(true)
      expect(err.message).toMatch(/InvalidAccessKeyId \(HTTP 403\): access refused/)
      expect(err.message).not.toContain('whatever-secret')
    } finally {
      await wrong.close()
    }
  })

  it('fails with IO_ERROR naming a bucket that does not exist', async () => {
    const missing = createS3BlobStore({ ...bucket.options, bucket: `${bucket.name}-gone` })
    try {
      const err = await missing.put('k', Uint8Array.of(1)).then(
        () => expect.fail('a missing bucket took a put'),
        (e: unknown) => e as Error,
      )
      expect(isEngineError(err, 'IO_ERROR')).toBe(true)
      expect(err.message).toContain(`PutObject of s3://${bucket.name}-gone/k failed: NoSuchBucket`)
    } finally {
      await missing.close()
    }
  })
})
