export { ERROR_CODES, errorCodeSchema, errorStatus, isErrorCode } from './error-codes'
export type { ErrorCode } from './error-codes'
export { errorBodySchema, validationIssueSchema } from './error-body'
export type { ErrorBody, ValidationIssue } from './error-body'
export { healthResponseSchema, healthStatusSchema } from './health'
export type { HealthResponse } from './health'
export { ROUTE_AUTHS, defineRoute, isRouteAuth } from './route'
export type { AnySchema, HttpMethod, RouteAuth, RouteDef, RouteRequest } from './route'
export { routes } from './routes'
export type { RouteName } from './routes'
export { booleanQuerySchema, versionHashSchema } from './query-values'
export {
  CONTENT_TYPE_RULE,
  contentTypeSchema,
  isContentType,
  MAX_CONTENT_TYPE_LENGTH,
} from './content-type'
export { peerForgetResponseSchema, peerStatusSchema, peersResponseSchema } from './peers'
export type { PeerForgetResponse, PeerStatus, PeersResponse } from './peers'
export { statsResponseSchema } from './stats'
export type { StatsResponse } from './stats'
export {
  createCronBodySchema,
  cronScheduleSchema,
  gcResultSchema,
  patchCronBodySchema,
  taskRefSchema,
  taskSchema,
} from './tasks'
export type { CronScheduleView, GcResultView, TaskView } from './tasks'
export {
  expectHeadQuerySchema,
  headLogEntrySchema,
  headLogPageSchema,
  headLogQuerySchema,
  IMPORT_STAGING_DIR,
  importResultSchema,
  MAX_HEAD_LOG_PAGE,
  MAX_IMPORT_BYTES,
  MAX_VERSION_CHANGES_PAGE,
  promoteResponseSchema,
  stagingPathSchema,
  versionChangeSchema,
  versionChangesPageSchema,
  versionChangesQuerySchema,
} from './versions'
export type {
  HeadLogEntryView,
  HeadLogPageView,
  ImportResultView,
  VersionChangesPageView,
  VersionChangeView,
} from './versions'
export {
  EMAIL_SECRET_MASK,
  emailAddressSchema,
  emailConfigSchema,
  emailConfigViewSchema,
  emailTestBodySchema,
  emailTestResultSchema,
  oauthEmailConfigSchema,
  smtpEmailConfigSchema,
} from './email'
export type { EmailConfigBody, EmailConfigView, EmailTestResult } from './email'
export {
  adminKeyViewSchema,
  createdAdminKeySchema,
  createdKeySchema,
  keyViewSchema,
  MAX_KEY_EXPIRY_DAYS,
  permissionFlagsSchema,
  revokedKeySchema,
  ruleSchema,
} from './identity/api-key'
export type {
  AdminKeyView,
  CreatedAdminKeyView,
  CreatedKeyView,
  KeyView,
  RuleView,
} from './identity/api-key'
export { deletedGroupSchema, groupSchema } from './identity/group'
export type { GroupView } from './identity/group'
export { uuidSchema } from './identity/identity-ids'
export { accessGrantSchema, magicLinkResponseSchema, tokenGrantSchema } from './identity/token'
export type { AccessGrantView, TokenGrantView } from './identity/token'
export { deactivatedUserSchema, userSchema } from './identity/user'
export type { UserView } from './identity/user'
export { whoamiSchema } from './identity/whoami'
export type { WhoamiView } from './identity/whoami'
export {
  changeResultSchema,
  deleteQuerySchema,
  entryViewSchema,
  filePathParamsSchema,
  forkQuerySchema,
  listingGlobSchema,
  listingSchema,
  readQuerySchema,
  writeResultSchema,
} from './files'
export type { EntryView } from './files'
export {
  createForkBodySchema,
  createSnapshotBodySchema,
  forkSchema,
  headMoveSchema,
  historyEntrySchema,
  historySchema,
  restorePathBodySchema,
  restoreVersionBodySchema,
  snapshotSchema,
  versionNameSchema,
} from './named-versions'
export type { ForkView, HistoryEntryView, SnapshotView } from './named-versions'
export {
  createdShareLinkSchema,
  shareBodySchema,
  shareLinkBodySchema,
  shareLinkSchema,
  shareResultSchema,
  shareSchema,
  unshareBodySchema,
} from './shares'
export type { ShareView } from './shares'
export { QUERY_OPERATORS, queryBodySchema, queryConditionSchema, queryResultSchema } from './query'
export type { QueryBody, QueryComparison, QueryCondition, QueryResultView } from './query'
export {
  commitBodySchema,
  commitManyBodySchema,
  commitManyFileSchema,
  commitManyResultSchema,
  MAX_COMMIT_MANY_FILES,
  uploadChunkRefSchema,
} from './uploads'
export type { CommitManyFile, CommitManyResultView } from './uploads'
