import { EngineError } from '../errors'
import { parseHash } from '../internal/hex'
import { assertRefName, HEAD, refKey } from '../meta/keys'
import { assertVersionRoot } from './version-roots'
import type { DatabaseState } from '../state/database-state'
import type { Refresher } from '../state/shared-state'
import type { VersionRootServices } from './version-roots'

/** What resolving a version spec needs. */
export interface VersionSpecServices extends VersionRootServices {
  readonly state: DatabaseState
  /** Set in a shared database: names resolve on a refreshed state. */
  readonly shared?: Refresher | undefined
}

/** A version named by snapshot, by hex hash, or HEAD (omitted, or the name `HEAD`). */
export type VersionSpec = string | { snapshot: string } | { version: string } | undefined

const HEX_HASH = /^[0-9a-fA-F]{64}$/

/**
 * The root a spec names. A string is a 64-digit hex hash, `HEAD` (the current version, in
 * every form of spec: the spec says "HEAD denotes the current version"), or else a snapshot
 * name (names can never look like hashes, and no new snapshot is named `HEAD`). `NOT_FOUND`
 * for an unknown snapshot; an unknown hash is only found out when its objects are read.
 */
export function resolveVersion(core: VersionSpecServices, spec: VersionSpec): Uint8Array {
  if (spec === undefined || nameOf(spec) === HEAD) return core.state.rootOf(HEAD)
  if (typeof spec === 'string') {
    return HEX_HASH.test(spec) ? parseHash(spec) : snapshotRoot(core, spec)
  }
  if ('snapshot' in spec) return snapshotRoot(core, spec.snapshot)
  if ('version' in spec) return parseHash(spec.version)
  throw new EngineError('INVALID_HASH', 'a version is a snapshot name or a hex hash')
}

/**
 * As {@link resolveVersion}, and a hash must be a version's root (`NOT_FOUND` otherwise): a
 * directory's hash never passes for a version.
 */
export async function resolveVersionRoot(
  core: VersionSpecServices,
  spec: VersionSpec,
): Promise<Uint8Array> {
  if (core.shared !== undefined) await core.shared.refresh()
  const root = resolveVersion(core, spec)
  if (namesHash(spec)) await assertVersionRoot(core, root)
  return root
}

/** True when `spec` names a version by hash rather than by ref (HEAD is a ref). */
export function namesHash(spec: VersionSpec): boolean {
  if (spec === undefined) return false
  if (typeof spec === 'string') return HEX_HASH.test(spec)
  return 'version' in spec && spec.version !== HEAD
}

/** The name or hash a spec gives, as written (callers from JavaScript may pass anything). */
function nameOf(spec: Exclude<VersionSpec, undefined>): unknown {
  if (typeof spec === 'string') return spec
  return 'snapshot' in spec ? spec.snapshot : 'version' in spec ? spec.version : undefined
}

function snapshotRoot(core: VersionSpecServices, name: string): Uint8Array {
  assertRefName('snapshot', name)
  const root = core.state.refs.get(refKey('snapshot', name))
  if (root === undefined)
    throw new EngineError('NOT_FOUND', `no snapshot named ${JSON.stringify(name)}`)
  return root
}
