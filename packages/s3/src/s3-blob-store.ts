import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3'
import type { _Error as S3DeleteError, S3Client } from '@aws-sdk/client-s3'
import { EngineError } from '@svcdb/engine'
import type { BlobInfo, BlobRange, BlobStore } from '@svcdb/engine'
import { resolveS3BlobStoreOptions } from './s3-blob-store-options'
import type { S3BlobStoreOptions } from './s3-blob-store-options'
import { createS3Client } from './s3-client'
import { s3ErrorCode, s3HttpStatus, wrapS3Error } from './s3-error'

/** Keys per ListObjectsV2 page and per DeleteObjects request: S3's maximum for both. */
export const S3_PAGE_SIZE = 1000
/** S3's limit on a key, in UTF-8 bytes (the store's prefix included). */
export const MAX_S3_KEY_BYTES = 1024

const encoder = new TextEncoder()

/**
 * A {@link BlobStore} over one S3 bucket (AWS S3, Ceph RGW, any S3-compatible server),
 * optionally inside a `prefix` folder. Objects are plain: key = prefix + key, body = the
 * bytes. Failures of S3 or the network are `IO_ERROR` with the S3 code and the object in the
 * message and the SDK error as `cause`; calls after `close()` are `CLOSED`; bad options and
 * keys are `INVALID_INPUT`, a range that is not `0 <= start <= end` a `RangeError`.
 *
 * @example
 * const blobs = createS3BlobStore({ bucket: 'svcdb', endpoint: 'http://127.0.0.1:7480' })
 * await blobs.put('chunks/ab/ab12…', bytes)
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const resolved = resolveS3BlobStoreOptions(options)
  const { bucket, prefix } = resolved
  const client: S3Client = createS3Client(resolved)
  const inFlight = new Set<Promise<unknown>>()
  let closed = false

  /** Runs one S3 call, counted so that close() waits for it; wraps its failure. */
  const call = <T>(
    operation: string,
    key: string | undefined,
    run: () => Promise<T>,
  ): Promise<T> => {
    if (closed) return Promise.reject(closedError())
    const target = key === undefined ? { operation, bucket } : { operation, bucket, key }
    const running = run().catch((err: unknown) => {
      throw wrapS3Error(err, target)
    })
    const settled = running.then(
      () => undefined,
      () => undefined,
    )
    inFlight.add(settled)
    void settled.then(() => inFlight.delete(settled))
    return running
  }

  const fullKey = (key: string): string => {
    if (typeof key !== 'string' || key === '') {
      throw new EngineError('INVALID_INPUT', 'A blob key must be a non-empty string')
    }
    const full = prefix + key
    if (encoder.encode(full).length > MAX_S3_KEY_BYTES) {
      throw new EngineError(
        'INVALID_INPUT',
        `Blob key ${JSON.stringify(key.slice(0, 64))}… is longer than S3's ${MAX_S3_KEY_BYTES} bytes (prefix included)`,
      )
    }
    return full
  }

  return {
    async put(key, bytes) {
      const Key = fullKey(key)
      if (!(bytes instanceof Uint8Array)) {
        throw new EngineError('INVALID_INPUT', 'Blob bytes must be a Uint8Array')
      }
      await call('PutObject', Key, () =>
        client.send(
          new PutObjectCommand({ Bucket: bucket, Key, Body: bytes, ContentLength: bytes.length }),
        ),
      )
    },

    async get(key, range) {
      const Key = fullKey(key)
      if (range !== undefined) checkRange(range)
      return call('GetObject', Key, async () => {
        let response
        try {
          response = await client.send(
            new GetObjectCommand({
              Bucket: bucket,
              Key,
              // HTTP ranges are inclusive and cannot be empty: ask for one byte and cut.
              ...(range === undefined
                ? {}
                : { Range: `bytes=${range.start}-${Math.max(range.start, range.end - 1)}` }),
            }),
          )
        } catch (err) {
          if (s3ErrorCode(err) === 'NoSuchKey') return undefined
          // 416: the object exists but the range starts past its end.
          if (range !== undefined && s3HttpStatus(err) === 416) return new Uint8Array(0)
          throw err
        }
        const body = response.Body
        const bytes = body === undefined ? new Uint8Array(0) : await body.transformToByteArray()
        if (range === undefined) return bytes
        // A server may ignore Range and send the whole object (200 without Content-Range).
        if (response.ContentRange === undefined) return bytes.slice(range.start, range.end)
        return bytes.subarray(0, range.end - range.start)
      })
    },

    async delete(keys) {
      if (!Array.isArray(keys)) throw new EngineError('INVALID_INPUT', 'Keys must be an array')
      const unique = [...new Set(keys.map(fullKey))]
      for (let at = 0; at < unique.length; at += S3_PAGE_SIZE) {
        const batch = unique.slice(at, at + S3_PAGE_SIZE)
        const response = await call('DeleteObjects', undefined, () =>
          client.send(
            new DeleteObjectsCommand({
              Bucket: bucket,
              Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
            }),
          ),
        )
        // Quiet mode reports only failures; a key that is already gone is not one.
        const failed = (response.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey')
        if (failed.length > 0) throw deleteFailure(bucket, failed, batch.length)
      }
    },

    async *list(keyPrefix): AsyncIterable<BlobInfo> {
      if (typeof keyPrefix !== 'string') {
        throw new EngineError('INVALID_INPUT', 'A list prefix must be a string')
      }
      const Prefix = prefix + keyPrefix
      let token: string | undefined
      do {
        const ContinuationToken = token
        const page = await call('ListObjectsV2', Prefix, () =>
          client.send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix,
              MaxKeys: S3_PAGE_SIZE,
              ...(ContinuationToken === undefined ? {} : { ContinuationToken }),
            }),
          ),
        )
        for (const object of page.Contents ?? []) {
          if (object.Key === undefined) continue
          yield {
            key: object.Key.slice(prefix.length),
            size: object.Size ?? 0,
            modified: object.LastModified?.getTime() ?? 0,
          }
        }
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined
      } while (token !== undefined)
    },

    async close() {
      if (closed) return
      closed = true
      // Let running requests finish before the connections go.
      await Promise.all(inFlight)
      client.destroy()
    },
  }
}

/** Throws `RangeError` (a caller's bug, as in every BlobStore) unless `0 <= start <= end`. */
function checkRange(range: BlobRange): void {
  const { start, end } = range ?? {}
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(
      `a blob range is 0 <= start <= end in integers, got [${String(start)}, ${String(end)})`,
    )
  }
}

function deleteFailure(bucket: string, failed: S3DeleteError[], of: number): EngineError {
  const shown = failed
    .slice(0, 5)
    .map((e) => `${e.Key ?? '?'} (${e.Code ?? 'Unknown'}${e.Message ? `: ${e.Message}` : ''})`)
  const more = failed.length > shown.length ? `, and ${failed.length - shown.length} more` : ''
  return new EngineError(
    'IO_ERROR',
    `S3 DeleteObjects in s3://${bucket}/ failed for ${failed.length} of ${of} keys: ${shown.join(', ')}${more}`,
    { cause: failed },
  )
}

function closedError(): EngineError {
  return new EngineError('CLOSED', 'The S3 blob store is closed')
}
