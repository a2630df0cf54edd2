export { AuthError, isAuthError } from './errors'
export type { AuthErrorCode, AuthErrorOptions } from './errors'

export { createAuth } from './create-auth'
export type { Auth, AuthOptions, BootstrapResult } from './auth'
export { parseAuthMode, formatAuthMode } from './auth-mode'
export type { AuthMode } from './auth-mode'
export { ROOT_PRINCIPAL } from './principal'
export type { Principal } from './principal'
export { systemClock } from './clock'
export { createKeyedLock } from './internal/keyed-lock'
export type { KeyedLock } from './internal/keyed-lock'
export type { Clock } from './clock'
export { cryptoRandomSource } from './random-source'
export type { RandomSource } from './random-source'

export type { KeyService, CreateKeyInput, RevokedKey } from './service/key-service'
export type { TokenGrant } from './service/session-service'
export type { ResetRootKeyOptions, ResetRootKeyResult } from './service/root-key-service'
export type { AccessGrant } from './service/magic-link-service'
export type { UserService } from './service/user-service'
export type { GroupService } from './service/group-service'
export type {
  ShareService,
  GrantSharesInput,
  ShareLinkView,
  CreatedShareLink,
} from './service/share-service'

export { DEFAULT_KEY_EXPIRY_DAYS, MAX_KEY_EXPIRY_DAYS } from './keys/api-key'
export type {
  ApiKeyKind,
  ApiKeyRecord,
  KeyView,
  CreatedKey,
  AdminKeyView,
  CreatedAdminKey,
} from './keys/api-key'
export { ROOT_USER_ID } from './users/user'
export type { User, CreateUserInput, UpdateUserInput } from './users/user'
export { SAFE_QUERY_FIELDS, QUERY_OPERATORS } from './groups/group'
export type {
  Group,
  CreateGroupInput,
  UpdateGroupInput,
  SafeQueryField,
  QueryOperator,
} from './groups/group'
export type { Share, ShareSubject } from './shares/share'

export { createRulesEvaluator } from './permissions/rules-evaluator'
export type { RulesEvaluator } from './permissions/rules-evaluator'
export { parseRules } from './permissions/rule'
export type { Rule } from './permissions/rule'
export { OPERATIONS, isPermissionString, permits } from './permissions/permission-flags'
export type { Operation } from './permissions/permission-flags'
export type { Access, PermissionDecision, DenyAs, VisibleItem } from './permissions/access'

export { createLoggingMagicLinkSender, magicLinkUrl } from './magic-links/magic-link-sender'
export type {
  MagicLinkSender,
  MagicLinkMessage,
  LoggingMagicLinkSenderOptions,
} from './magic-links/magic-link-sender'
export type { MagicLinkCodeRecord } from './magic-links/magic-link-code'
export { DEFAULT_MAGIC_LINK_LIMITS } from './magic-links/request-limiter'
export type { MagicLinkLimits } from './magic-links/request-limiter'
export type { RefreshTokenRecord, RefreshConsumption } from './tokens/refresh-token'
export type { SigningKeyRecord } from './tokens/signing-key'
export type { AccessTokenClaims } from './tokens/access-token'

export { createMemoryIdentityStore } from './store/memory-identity-store'
export { createKvIdentityStore } from './store/kv-identity-store'
export type {
  IdentityStore,
  RateLimitPolicy,
  RateLimitResult,
  ShareQuery,
} from './store/identity-store'
export type { KvStore, KvOperation, KvGuard, KvBatchOptions } from './store/kv-store'
