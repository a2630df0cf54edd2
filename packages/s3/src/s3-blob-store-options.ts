import { EngineError } from '@svcdb/engine'

/** Keys and secret of an S3 access key. */
export interface S3Credentials {
  /** The access key's id (it names the key and may appear in errors). */
  readonly accessKeyId: string
  /** The secret that signs requests; it never leaves this process and never appears in errors. */
  readonly secretAccessKey: string
}

/** Where and how {@link createS3BlobStore} reaches its bucket. */
export interface S3BlobStoreOptions {
  /** The bucket; it must exist. */
  readonly bucket: string
  /** `http(s)://host[:port]` of an S3-compatible server (Ceph RGW…); AWS S3 when left out. */
  readonly endpoint?: string
  /** Signing region. Default `us-east-1`. */
  readonly region?: string
  /** A folder inside the bucket that holds every object (`a/b` becomes `a/b/`). Default none. */
  readonly prefix?: string
  /** Default: the SDK's standard chain (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` first). */
  readonly credentials?: S3Credentials
  /** Open connections to the server at most; further requests queue. Default 32. */
  readonly maxSockets?: number
  /** Tries per request, the first included (so 1 = no retry). Default 3. */
  readonly maxAttempts?: number
}

/** {@link S3BlobStoreOptions} checked, with every default filled in. */
export interface ResolvedS3BlobStoreOptions {
  readonly bucket: string
  readonly endpoint: string | undefined
  readonly region: string
  /** Empty, or ends with `/`. */
  readonly prefix: string
  readonly credentials: S3Credentials | undefined
  readonly maxSockets: number
  readonly maxAttempts: number
}

/** Default of {@link S3BlobStoreOptions.region}. */
export const DEFAULT_S3_REGION = 'us-east-1'
/** Default of {@link S3BlobStoreOptions.maxSockets}. */
export const DEFAULT_S3_MAX_SOCKETS = 32
/** Default of {@link S3BlobStoreOptions.maxAttempts}. */
export const DEFAULT_S3_MAX_ATTEMPTS = 3

// S3's own bucket naming rules (lower case, dots and dashes, 3–63 characters); RGW applies them too.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const REGION = /^[a-z0-9-]{1,64}$/

/**
 * Checks `options` and fills in the defaults. Bad values throw `INVALID_INPUT` naming the
 * option; the credentials' values never appear in a message.
 */
export function resolveS3BlobStoreOptions(options: S3BlobStoreOptions): ResolvedS3BlobStoreOptions {
  if (typeof options !== 'object' || options === null) {
    throw invalid('S3 blob store options must be an object')
  }
  const { bucket, endpoint, region = DEFAULT_S3_REGION, prefix = '', credentials } = options
  if (typeof bucket !== 'string' || !BUCKET.test(bucket) || bucket.includes('..')) {
    throw invalid(
      `S3 bucket ${JSON.stringify(bucket)} is not a valid bucket name (3-63 characters: a-z, 0-9, '.', '-')`,
    )
  }
  if (endpoint !== undefined) checkEndpoint(endpoint)
  if (typeof region !== 'string' || !REGION.test(region)) {
    throw invalid(`S3 region ${JSON.stringify(region)} is not valid (a-z, 0-9 and '-')`)
  }
  if (typeof prefix !== 'string' || prefix.startsWith('/') || prefix.includes('//')) {
    throw invalid(
      `S3 prefix ${JSON.stringify(prefix)} is not valid: a folder such as 'svcdb/prod', without a leading '/' or empty parts`,
    )
  }
  if (credentials !== undefined) checkCredentials(credentials)
  return {
    bucket,
    endpoint: endpoint?.replace(/\/+$/, ''),
    region,
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
    credentials,
    maxSockets: count('maxSockets', options.maxSockets ?? DEFAULT_S3_MAX_SOCKETS, 1, 1024),
    maxAttempts: count('maxAttempts', options.maxAttempts ?? DEFAULT_S3_MAX_ATTEMPTS, 1, 20),
  }
}

function checkEndpoint(endpoint: unknown): void {
  let url: URL | undefined
  try {
    url = typeof endpoint === 'string' ? new URL(endpoint) : undefined
  } catch {
    url = undefined
  }
  const ok =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === ''
  if (!ok) {
    // The URL may carry a password: name the rule, never echo the value.
    throw invalid(
      'S3 endpoint must be an http(s) URL such as http://127.0.0.1:7480, without user, password, query or fragment',
    )
  }
}

function checkCredentials(credentials: S3Credentials): void {
  const ok =
    typeof credentials === 'object' &&
    credentials !== null &&
    typeof credentials.accessKeyId === 'string' &&
    credentials.accessKeyId !== '' &&
    typeof credentials.secretAccessKey === 'string' &&
    credentials.secretAccessKey !== ''
  if (!ok) {
    throw invalid('S3 credentials need a non-empty accessKeyId and secretAccessKey')
  }
}

function count(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(
      `S3 option ${name} must be an integer from ${min} to ${max}, got ${String(value)}`,
    )
  }
  return value
}

function invalid(message: string): EngineError {
  return new EngineError('INVALID_INPUT', message)
}
