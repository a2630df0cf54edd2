/** Who a share grants to: a user by id or a group by name (DESIGN §10). */
export type ShareSubject = { kind: 'user'; userId: string } | { kind: 'group'; name: string }

/**
 * A grant of exact permissions on a path and everything below it, to a user or a group
 * (`POST /files/share`).
 */
export interface Share {
  /** Absolute, normalised path. */
  path: string
  subject: ShareSubject
  /** 8-character permission string. */
  permissions: string
  createdAt: number
}

/** Longest path accepted. */
const MAX_PATH_LENGTH = 4096

/**
 * True for an absolute, normalised path: a leading `/`, no empty, `.` or `..` segments, no
 * trailing `/` (except `/` itself), no NUL.
 */
export function isNormalizedPath(value: unknown): value is string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > MAX_PATH_LENGTH) {
    return false
  }
  if (value === '/') return true
  if (value.includes('\0')) return false
  return value
    .slice(1)
    .split('/')
    .every((s) => s !== '' && s !== '.' && s !== '..')
}

/** True when a share on `sharePath` covers `path` (the path itself or anything below it). */
export function shareCovers(sharePath: string, path: string): boolean {
  return sharePath === '/' || path === sharePath || path.startsWith(`${sharePath}/`)
}

/** True when `path` is a proper ancestor of `sharePath`, so it leads to the shared entry. */
export function leadsToShare(sharePath: string, path: string): boolean {
  return path !== sharePath && (path === '/' || sharePath.startsWith(`${path}/`))
}

/** True when two subjects name the same user or group. */
export function sameSubject(a: ShareSubject, b: ShareSubject): boolean {
  return a.kind === 'user'
    ? b.kind === 'user' && a.userId === b.userId
    : b.kind === 'group' && a.name === b.name
}
