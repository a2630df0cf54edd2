/** The hash of the Versions screen's overview (snapshots, forks, diff, archives, HEAD log). */
export const VERSIONS_ROOT_HASH = '#/versions'

/** What a read-only listing browses: a fork or a snapshot, by name. */
export type BrowsedKind = 'fork' | 'snapshot'

/** A directory of a fork's or a snapshot's tree. */
export interface BrowseTarget {
  kind: BrowsedKind
  name: string
  /** The directory, absolute (`/`, `/a/b`). */
  path: string
}

/** Where the Versions screen is: its overview, or a directory of a fork or snapshot. */
export type VersionsRoute = { view: 'overview' } | ({ view: 'browse' } & BrowseTarget)

/** The hash segment of each kind: `#/versions/forks/…`, `#/versions/snapshots/…`. */
const SEGMENT_OF = { fork: 'forks', snapshot: 'snapshots' } as const satisfies Record<
  BrowsedKind,
  string
>

function kindOf(segment: string | undefined): BrowsedKind | undefined {
  if (segment === SEGMENT_OF.fork) return 'fork'
  if (segment === SEGMENT_OF.snapshot) return 'snapshot'
  return undefined
}

/**
 * The place a location hash names: `#/versions` is the overview, `#/versions/forks/<name>/<path>`
 * a directory of a fork (`snapshots` for a snapshot), each segment URI-encoded. `undefined` for
 * a hash of another section, an unknown sub-route, a missing name, a bad escape or a path with
 * `.`, `..` or an encoded `/` in a segment (it would name another directory than the one shown).
 */
export function versionsRouteFromHash(hash: string): VersionsRoute | undefined {
  if (hash !== VERSIONS_ROOT_HASH && !hash.startsWith(`${VERSIONS_ROOT_HASH}/`)) return undefined
  const [kindSegment, nameSegment, ...rest] = hash
    .slice(VERSIONS_ROOT_HASH.length)
    .split('/')
    .filter((segment) => segment !== '')
  if (kindSegment === undefined) return { view: 'overview' }
  const kind = kindOf(kindSegment)
  if (kind === undefined || nameSegment === undefined) return undefined
  try {
    // A name may hold any character (`/` too): it is one encoded segment.
    const name = decodeURIComponent(nameSegment)
    const segments = rest.map(decodeURIComponent)
    if (segments.some((s) => s === '.' || s === '..' || s.includes('/'))) return undefined
    return { view: 'browse', kind, name, path: `/${segments.join('/')}` }
  } catch {
    return undefined
  }
}

/** The location hash of directory `path` of a fork or snapshot (`/` is the tree's root). */
export function hashForBrowse(target: BrowseTarget): string {
  const segments = target.path.split('/').filter((segment) => segment !== '')
  return [VERSIONS_ROOT_HASH, SEGMENT_OF[target.kind], target.name, ...segments]
    .map((segment, index) => (index === 0 ? segment : encodeURIComponent(segment)))
    .join('/')
}
