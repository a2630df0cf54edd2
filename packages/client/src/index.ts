export type { SessionTokens, TokensListener } from './auth/token-session'
export { createClient } from './create-client'
export type { Client, ClientOptions, EventsApi } from './create-client'
export { ClientError, clientErrorFromBody, isClientError } from './errors'
export type { ClientErrorCode, ClientErrorOptions } from './errors'
export type {
  SubscribeCallbackOptions,
  SubscriptionErrorSource,
  Unsubscribe,
} from './events/event-callback'
export type { SubscribeOptions } from './events/event-subscription'
export type { CallOptions } from './http/route-types'
export type {
  Download,
  ReadOptions,
  VersionSelector,
  WholeReadOptions,
} from './resources/file-reads'
export type {
  CopyBody,
  FilesApi,
  ForkOptions,
  ListingPage,
  ListOptions,
  MoveBody,
  WriteOptions,
} from './resources/files'
export type { AuthApi, KeysApi } from './resources/keys'
export type { SharesApi } from './resources/shares'
export type { CronApi, EmailApi, SystemApi, TasksApi } from './resources/system'
export type { GroupsApi, UsersApi } from './resources/users'
export type {
  ArchiveDownload,
  ExpectHeadOptions,
  ForksApi,
  HeadLogItem,
  HeadLogPage,
  SnapshotsApi,
  VersionChange,
  VersionChangesOptions,
  VersionChangesPage,
  VersionsApi,
} from './resources/versions'
export { chunkHash, contentHash } from './uploads/chunk-hash'
export type { UploadOptions, UploadProgress } from './uploads/dedup-upload'
export type {
  UploadManyFile,
  UploadManyOptions,
  UploadManyProgress,
  UploadManyResult,
} from './uploads/bulk-upload'
export type { UploadSource } from './uploads/upload-source'
