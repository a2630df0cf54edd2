import { EngineError } from '@svcdb/engine'
import { resolveS3BlobStoreOptions } from './s3-blob-store-options'
import type { S3BlobStoreOptions } from './s3-blob-store-options'

const KNOWN_PARAMS = new Set(['endpoint', 'region'])

/**
 * Reads the `--chunks` syntax `s3://BUCKET[/prefix][?endpoint=URL&region=R]` into options
 * for {@link createS3BlobStore}. Credentials never go in the URL (they come from
 * `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`). A malformed URL throws `INVALID_INPUT` saying
 * what is wrong, without echoing any user or password part.
 *
 * @example
 * parseS3Url('s3://svcdb/prod?endpoint=http://127.0.0.1:7480')
 * // { bucket: 'svcdb', prefix: 'prod/', endpoint: 'http://127.0.0.1:7480' }
 */
export function parseS3Url(url: string): S3BlobStoreOptions {
  if (typeof url !== 'string' || !url.startsWith('s3://')) {
    throw invalid('must start with s3://, as in s3://BUCKET/prefix?endpoint=http://host:port')
  }
  const rest = url.slice('s3://'.length)
  const queryAt = rest.indexOf('?')
  const location = queryAt === -1 ? rest : rest.slice(0, queryAt)
  const query = queryAt === -1 ? '' : rest.slice(queryAt + 1)
  if (location.includes('#') || query.includes('#')) throw invalid('must not have a #fragment')

  const slashAt = location.indexOf('/')
  const authority = slashAt === -1 ? location : location.slice(0, slashAt)
  const path = slashAt === -1 ? '' : location.slice(slashAt + 1)
  if (authority.includes('@')) {
    throw invalid(
      'must not carry credentials; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead',
    )
  }
  if (authority === '') throw invalid('names no bucket (s3://BUCKET/...)')

  let prefix: string
  try {
    prefix = decodeURIComponent(path)
  } catch (err) {
    throw invalid('has a malformed %-escape in its prefix', err)
  }
  const params = new URLSearchParams(query)
  for (const name of params.keys()) {
    if (!KNOWN_PARAMS.has(name)) {
      throw invalid(`has an unknown parameter ${JSON.stringify(name)} (known: endpoint, region)`)
    }
    if (params.getAll(name).length > 1) throw invalid(`gives ${name} more than once`)
  }
  const endpoint = params.get('endpoint')
  const region = params.get('region')
  const options: S3BlobStoreOptions = {
    bucket: authority,
    ...(prefix === '' ? {} : { prefix }),
    ...(endpoint === null ? {} : { endpoint }),
    ...(region === null ? {} : { region }),
  }
  try {
    const resolved = resolveS3BlobStoreOptions(options)
    return resolved.prefix === '' ? options : { ...options, prefix: resolved.prefix }
  } catch (err) {
    throw invalid(`is not usable: ${(err as Error).message}`, err)
  }
}

function invalid(problem: string, cause?: unknown): EngineError {
  return new EngineError('INVALID_INPUT', `S3 URL ${problem}`, cause === undefined ? {} : { cause })
}
