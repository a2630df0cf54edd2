import { EngineError } from '../../errors'

// Keys of the `ref` space (and of `refinfo`, which holds the info of the same refs): `HEAD`,
// or a kind's prefix followed by the ref's name. No prefix is a prefix of another, and none
// is `HEAD`, so a key names exactly one ref of one kind. `import/` and `peer/` refs only keep
// a version from GC: no listing, count or change event reports them.

/** The ref of the current version. */
export const HEAD = 'HEAD'

/**
 * Kinds of named refs besides HEAD: `import` pins an imported version until it is promoted,
 * `peer` holds the version last synced from a replication peer.
 */
export type RefKind = 'snapshot' | 'fork' | 'import' | 'peer'

const PREFIX: Record<RefKind, string> = {
  snapshot: 'snap/',
  fork: 'fork/',
  import: 'import/',
  peer: 'peer/',
}
const KINDS = ['snapshot', 'fork', 'import', 'peer'] as const

// Names travel in URLs and CLI arguments: keep them to a portable set, and never 64 hex
// digits, which would read as a version hash wherever "snapshot name or hash" is accepted.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
const HASH_LIKE = /^[0-9a-fA-F]{64}$/

/** Refuses a snapshot, fork or peer name that is not 1–128 of `A-Z a-z 0-9 . _ -` (not starting with `.`, `_` or `-`). */
export function assertRefName(
  kind: 'snapshot' | 'fork' | 'peer',
  name: unknown,
): asserts name is string {
  if (typeof name !== 'string' || !NAME.test(name) || HASH_LIKE.test(name)) {
    throw new EngineError(
      'INVALID_NAME',
      `invalid ${kind} name ${JSON.stringify(name)}: use 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit, and not a 64-digit hex hash`,
    )
  }
}

/** The ref key of a named ref. */
export function refKey(kind: RefKind, name: string): string {
  return PREFIX[kind] + name
}

/** The name of a ref of `kind`, or undefined when `ref` is of another kind. */
export function refName(kind: RefKind, ref: string): string | undefined {
  return ref.startsWith(PREFIX[kind]) ? ref.slice(PREFIX[kind].length) : undefined
}

/** The kind and name of a named ref, or `undefined` for HEAD (or a key of no known kind). */
export function parseRefKey(ref: string): { kind: RefKind; name: string } | undefined {
  for (const kind of KINDS) {
    const name = refName(kind, ref)
    if (name !== undefined) return { kind, name }
  }
  return undefined
}

/** The fork a ref belongs to (`undefined` for HEAD). */
export function forkOf(ref: string): string | undefined {
  return refName('fork', ref)
}

/** Words for a ref in messages: `HEAD`, `snapshot "a"`, `fork "b"`. */
export function describeRef(ref: string): string {
  const named = parseRefKey(ref)
  return named === undefined ? ref : `${named.kind} ${JSON.stringify(named.name)}`
}

/** Names of every ref of `kind` among `refs`, sorted (bytewise, like the store's keys). */
export function namesOf(kind: RefKind, refs: Iterable<string>): string[] {
  const names: string[] = []
  for (const ref of refs) {
    const name = refName(kind, ref)
    if (name !== undefined) names.push(name)
  }
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}
