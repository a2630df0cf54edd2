import { readVersionLog } from '../state/version-log'
import { EngineError } from '../errors'
import { sameBytes, toHex } from '../internal/hex'
import { headLogNames } from './head-log'
import type { MetaStore } from '../meta/meta-store'
import type { DatabaseState } from '../state/database-state'

/** What resolving version roots needs. */
export interface VersionRootServices {
  assertOpen(): void
  readonly meta: MetaStore
  readonly state: DatabaseState
}

/** Roots confirmed per open database: a hash once a version's root stays one. */
const confirmed = new WeakMap<VersionRootServices, Set<string>>()
const MAX_CONFIRMED = 1024

/**
 * True when `root` is the root of a version this database has had: HEAD, a snapshot, a fork,
 * an imported version, or any root the version log or the HEAD log records. A directory's hash is not a
 * version: reading "a version" rooted at `/eng` would check permissions against the wrong
 * paths, so such a hash must never be accepted where a version is.
 */
export async function isVersionRoot(core: VersionRootServices, root: Uint8Array): Promise<boolean> {
  core.assertOpen()
  for (const value of core.state.refs.values()) if (sameBytes(value, root)) return true
  const hex = toHex(root)
  const known = confirmed.get(core)
  if (known?.has(hex) === true) return true
  let found = false
  for await (const record of readVersionLog(core.meta, { reverse: true })) {
    if (record.to === hex || record.from === hex) {
      found = true
      break
    }
  }
  // The HEAD log outlives the bounded version log: an undo must work for its whole window.
  if (!found) found = await headLogNames(core.meta, hex)
  if (!found) return false
  const set = known ?? new Set<string>()
  if (set.size >= MAX_CONFIRMED) set.clear()
  set.add(hex)
  confirmed.set(core, set)
  return true
}

/** Throws `NOT_FOUND` unless `root` is a version's root (see {@link isVersionRoot}). */
export async function assertVersionRoot(
  core: VersionRootServices,
  root: Uint8Array,
): Promise<void> {
  if (!(await isVersionRoot(core, root)))
    throw new EngineError('NOT_FOUND', `version ${toHex(root)} is not stored`)
}
