export { parseS3Url } from './parse-s3-url'
export { createS3BlobStore, MAX_S3_KEY_BYTES, S3_PAGE_SIZE } from './s3-blob-store'
export {
  DEFAULT_S3_MAX_ATTEMPTS,
  DEFAULT_S3_MAX_SOCKETS,
  DEFAULT_S3_REGION,
} from './s3-blob-store-options'
export type { S3BlobStoreOptions, S3Credentials } from './s3-blob-store-options'
