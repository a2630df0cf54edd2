import { isEngineError } from '@svcdb/engine'
import { describe, expect, it } from 'vitest'
import { parseS3Url } from './parse-s3-url'

function failure(url: string): Error {
  try {
    parseS3Url(url)
  } catch (err) {
    expect(isEngineError(err, 'INVALID_INPUT')).toBe(true)
    return err as Error
  }
  throw new Error(`parseS3Url accepted ${url}`)
}

describe('parseS3Url', () => {
  it('reads a bare bucket', () => {
    expect(parseS3Url('s3://svcdb')).toEqual({ bucket: 'svcdb' })
    expect(parseS3Url('s3://svcdb/')).toEqual({ bucket: 'svcdb' })
  })

  it('reads a prefix as a folder, ending in a slash', () => {
    expect(parseS3Url('s3://svcdb/prod/eu')).toEqual({ bucket: 'svcdb', prefix: 'prod/eu/' })
    expect(parseS3Url('s3://svcdb/prod/')).toEqual({ bucket: 'svcdb', prefix: 'prod/' })
  })

  it('decodes %-escapes in the prefix', () => {
    expect(parseS3Url('s3://svcdb/a%20b')).toEqual({ bucket: 'svcdb', prefix: 'a b/' })
  })

  it('reads endpoint and region from the query', () => {
    expect(parseS3Url('s3://svcdb/p?endpoint=http://127.0.0.1:7480&region=eu-west-1')).toEqual({
      bucket: 'svcdb',
      prefix: 'p/',
      endpoint: 'http://127.0.0.1:7480',
      region: 'eu-west-1',
    })
    expect(parseS3Url('s3://svcdb?endpoint=https%3A%2F%2Fs3.example.com')).toEqual({
      bucket: 'svcdb',
      endpoint: 'https://s3.example.com',
    })
  })

  it('rejects other schemes and a missing bucket', () => {
    expect(failure('http://svcdb/x').message).toMatch(/must start with s3:\/\//)
    expect(failure('svcdb').message).toMatch(/must start with s3:\/\//)
    expect(failure('s3://').message).toMatch(/names no bucket/)
    expect(failure('s3:///prefix').message).toMatch(/names no bucket/)
  })

  it('rejects bucket names S3 does not allow', () => {
    expect(failure('s3://Has_Upper').message).toMatch(/not a valid bucket name/)
    expect(failure('s3://ab').message).toMatch(/not a valid bucket name/)
  })

  it('rejects credentials in the URL without echoing them', () => {
    const err = failure('s3://AKIDEXAMPLE:s3cr3t-value@svcdb/x')
    expect(err.message).toMatch(/AWS_ACCESS_KEY_ID/)
    expect(err.message).not.toContain('s3cr3t-value')
    expect(err.message).not.toContain('AKIDEXAMPLE')
  })

  it('rejects an endpoint with a password without echoing it', () => {
    const err = failure('s3://svcdb?endpoint=http://user:s3cr3t-value@127.0.0.1:7480')
    expect(err.message).toMatch(/endpoint must be an http\(s\) URL/)
    expect(err.message).not.toContain('s3cr3t-value')
  })

  it('rejects unknown, repeated and malformed parameters', () => {
    expect(failure('s3://svcdb?endpont=http://x').message).toMatch(/unknown parameter "endpont"/)
    expect(failure('s3://svcdb?region=a&region=b').message).toMatch(/region more than once/)
    expect(failure('s3://svcdb?endpoint=ftp://host').message).toMatch(/http\(s\) URL/)
    expect(failure('s3://svcdb?region=EU%20WEST').message).toMatch(/region/)
    expect(failure('s3://svcdb/a%zz').message).toMatch(/%-escape/)
    expect(failure('s3://svcdb/a//b').message).toMatch(/prefix/)
    expect(failure('s3://svcdb/x#frag').message).toMatch(/fragment/)
  })
})
