import { isEngineError } from '@svcdb/engine'
import { describe, expect, it } from 'vitest'
import { resolveS3BlobStoreOptions } from './s3-blob-store-options'
import type { S3BlobStoreOptions } from './s3-blob-store-options'

function failure(options: unknown): Error {
  try {
    resolveS3BlobStoreOptions(options as S3BlobStoreOptions)
  } catch (err) {
    expect(isEngineError(err, 'INVALID_INPUT')).toBe(true)
    return err as Error
  }
  throw new Error(`accepted ${JSON.stringify(options)}`)
}

describe('resolveS3BlobStoreOptions', () => {
  it('fills in the defaults', () => {
    expect(resolveS3BlobStoreOptions({ bucket: 'svcdb' })).toEqual({
      bucket: 'svcdb',
      endpoint: undefined,
      region: 'us-east-1',
      prefix: '',
      credentials: undefined,
      maxSockets: 32,
      maxAttempts: 3,
    })
  })

  it('keeps given values, ends the prefix with a slash and trims the endpoint', () => {
    const credentials = { accessKeyId: 'AK', secretAccessKey: 'SK' }
    expect(
      resolveS3BlobStoreOptions({
        bucket: 'my.bucket-1',
        endpoint: 'http://127.0.0.1:7480/',
        region: 'eu-west-1',
        prefix: 'svcdb/prod',
        credentials,
        maxSockets: 4,
        maxAttempts: 1,
      }),
    ).toEqual({
      bucket: 'my.bucket-1',
      endpoint: 'http://127.0.0.1:7480',
      region: 'eu-west-1',
      prefix: 'svcdb/prod/',
      credentials,
      maxSockets: 4,
      maxAttempts: 1,
    })
  })

  it('rejects a missing or malformed bucket', () => {
    expect(failure({}).message).toMatch(/bucket undefined is not a valid bucket name/)
    expect(failure({ bucket: 'a' }).message).toMatch(/not a valid bucket name/)
    expect(failure({ bucket: 'a..b' }).message).toMatch(/not a valid bucket name/)
    expect(failure({ bucket: '-abc' }).message).toMatch(/not a valid bucket name/)
    expect(failure(null).message).toMatch(/must be an object/)
  })

  it('rejects endpoints that are not plain http(s) URLs', () => {
    for (const endpoint of ['127.0.0.1:7480', 'ftp://host', 'http://h/?x=1', 'not a url', 7480]) {
      expect(failure({ bucket: 'svcdb', endpoint }).message).toMatch(/endpoint must be/)
    }
  })

  it('rejects a region or prefix S3 cannot take', () => {
    expect(failure({ bucket: 'svcdb', region: 'EU West' }).message).toMatch(/region/)
    expect(failure({ bucket: 'svcdb', prefix: '/abs' }).message).toMatch(/prefix/)
    expect(failure({ bucket: 'svcdb', prefix: 'a//b' }).message).toMatch(/prefix/)
  })

  it('rejects empty credentials without echoing the secret', () => {
    const err = failure({
      bucket: 'svcdb',
      credentials: { accessKeyId: '', secretAccessKey: 'top-secret-value' },
    })
    expect(err.message).toMatch(/accessKeyId and secretAccessKey/)
    expect(err.message).not.toContain('top-secret-value')
  })

  it('rejects socket and attempt counts out of range', () => {
    expect(failure({ bucket: 'svcdb', maxSockets: 0 }).message).toMatch(/maxSockets.*1 to 1024/)
    expect(failure({ bucket: 'svcdb', maxSockets: 2.5 }).message).toMatch(/maxSockets/)
    expect(failure({ bucket: 'svcdb', maxAttempts: 0 }).message).toMatch(/maxAttempts.*1 to 20/)
    expect(failure({ bucket: 'svcdb', maxAttempts: 21 }).message).toMatch(/maxAttempts/)
  })
})
