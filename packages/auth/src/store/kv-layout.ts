import type { ShareSubject } from '../shares/share'
import { identityKey } from '../users/user'

// Every variable part is URI-encoded, so keys are ASCII and never contain a stray '/'.
const enc = encodeURIComponent

const subjectKey = (subject: ShareSubject) =>
  subject.kind === 'user' ? `u/${enc(subject.userId)}` : `g/${enc(subject.name)}`

/**
 * Key layout of the identity records in a `KvStore`. Records are JSON; index entries hold the
 * id they point to (or nothing).
 */
export const kvLayout = {
  users: 'user/',
  user: (userId: string) => `user/${enc(userId)}`,
  username: (username: string) => `username/${enc(identityKey(username))}`,
  email: (email: string) => `email/${enc(identityKey(email))}`,
  groups: 'group/',
  group: (name: string) => `group/${enc(name)}`,
  keys: 'key/',
  key: (keyId: string) => `key/${enc(keyId)}`,
  keyPrefix: (prefix: string) => `keyprefix/${enc(prefix)}`,
  refreshTokens: 'rt/',
  refreshToken: (digest: string) => `rt/${enc(digest)}`,
  familyMember: (familyId: string, digest: string) => `rtfam/${enc(familyId)}/${enc(digest)}`,
  familyMembers: (familyId: string) => `rtfam/${enc(familyId)}/`,
  familyRevocations: 'rtrevoked/',
  familyRevoked: (familyId: string) => `rtrevoked/${enc(familyId)}`,
  magicCodes: 'ml/',
  magicCode: (digest: string) => `ml/${enc(digest)}`,
  signingKey: 'signing/current',
  rateBuckets: 'rate/',
  rateBucket: (bucket: string) => `rate/${enc(bucket)}`,
  shares: 'share/',
  sharesOn: (path: string) => `share/${enc(path)}/`,
  share: (path: string, subject: ShareSubject) => `share/${enc(path)}/${subjectKey(subject)}`,
  sharesOf: (subject: ShareSubject) => `sharesubj/${subjectKey(subject)}/`,
  shareOf: (subject: ShareSubject, path: string) => `sharesubj/${subjectKey(subject)}/${enc(path)}`,
  /** Version of a named section (`KvSectionSpec.versions`): guards what a prefix scan read. */
  lockVersion: (name: string) => `lockver/${enc(name)}`,
  /** Moves with every write of users, groups, keys or shares, in any process. */
  changeStamp: 'generation',
} as const
