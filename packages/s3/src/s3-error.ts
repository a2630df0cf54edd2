import { EngineError, isEngineError } from '@svcdb/engine'

/** What failed: the S3 operation and the object (or bucket) it was about. */
export interface S3Target {
  readonly operation: string
  readonly bucket: string
  /** The full object key, prefix included; absent for bucket-wide calls. */
  readonly key?: string
}

// Codes that mean "these credentials may not do this": the message says so in words.
const ACCESS_CODES = new Set([
  'AccessDenied',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'InvalidToken',
  'ExpiredToken',
  'CredentialsProviderError',
])

/** The S3 error code (`NoSuchKey`, `AccessDenied`…) or network code (`ECONNREFUSED`) of `err`. */
export function s3ErrorCode(err: unknown): string {
  if (typeof err !== 'object' || err === null) return 'Unknown'
  const e = err as { name?: unknown; code?: unknown; Code?: unknown }
  // Network errors keep their errno in `code`; S3 service errors carry the code in `name`.
  if (typeof e.code === 'string' && e.code !== '') return e.code
  if (typeof e.Code === 'string' && e.Code !== '') return e.Code
  if (typeof e.name === 'string' && e.name !== '' && e.name !== 'Error') return e.name
  return 'Unknown'
}

/** The HTTP status of an S3 error response, when there was one. */
export function s3HttpStatus(err: unknown): number | undefined {
  const status = (err as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata
    ?.httpStatusCode
  return typeof status === 'number' ? status : undefined
}

/**
 * Wraps a failure of the S3 client as `IO_ERROR`: the message names the operation, the S3
 * code, the HTTP status and `s3://bucket/key`; the original error is the `cause`. Messages
 * come from the server or the network, which never see the secret key.
 */
export function wrapS3Error(err: unknown, target: S3Target): EngineError {
  if (isEngineError(err)) return err
  const code = s3ErrorCode(err)
  const status = s3HttpStatus(err)
  const where = `s3://${target.bucket}/${target.key ?? ''}`
  const detail = serverMessage(err, code)
  const access = ACCESS_CODES.has(code)
    ? ': access refused, check the access key, secret and bucket policy'
    : ''
  const parts = [
    `S3 ${target.operation} of ${where} failed: ${code}`,
    status === undefined ? '' : ` (HTTP ${status})`,
    access,
    detail === '' ? '' : ` - ${detail}`,
  ]
  return new EngineError('IO_ERROR', parts.join(''), { cause: err })
}

function serverMessage(err: unknown, code: string): string {
  const message = err instanceof Error ? err.message : ''
  // The SDK fills an empty error body with the code or 'UnknownError': nothing to add.
  if (message === '' || message === code || message === 'UnknownError') return ''
  return message.length > 300 ? `${message.slice(0, 300)}…` : message
}
