import { S3Client } from '@aws-sdk/client-s3'
import { NodeHttpHandler } from '@smithy/node-http-handler'
import type { ResolvedS3BlobStoreOptions } from './s3-blob-store-options'

/** How long opening a TCP/TLS connection may take before the attempt fails (and is retried). */
export const S3_CONNECTION_TIMEOUT_MS = 5_000
/** How long a connection may stay silent mid-request; no cap on whole requests (big objects). */
export const S3_SOCKET_TIMEOUT_MS = 30_000

/**
 * An `S3Client` set up for S3-compatible servers (README "SDK settings"): path-style URLs,
 * checksums only where the API requires them, keep-alive connections capped at
 * `maxSockets`, and `maxAttempts` tries per request.
 */
export function createS3Client(options: ResolvedS3BlobStoreOptions): S3Client {
  const agent = { keepAlive: true, maxSockets: options.maxSockets }
  return new S3Client({
    region: options.region,
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.credentials === undefined
      ? {}
      : {
          credentials: {
            accessKeyId: options.credentials.accessKeyId,
            secretAccessKey: options.credentials.secretAccessKey,
          },
        }),
    // Bucket names in the path: RGW, Swift and local servers have no wildcard DNS.
    forcePathStyle: true,
    // The SDK's default CRC checksums are rejected by several S3 servers (SCALE-OUT.md §1).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: options.maxAttempts,
    requestHandler: new NodeHttpHandler({
      httpAgent: agent,
      httpsAgent: agent,
      connectionTimeout: S3_CONNECTION_TIMEOUT_MS,
      socketTimeout: S3_SOCKET_TIMEOUT_MS,
    }),
  })
}
