/** An entry as a replication through a read-only key sees it, on the peer or here. */
export interface TreeFacts {
  path: string
  type: 'file' | 'directory' | 'symlink'
  /** A file's content hash, a directory's or symlink's object hash. */
  hash: string
  /** A file's content type; `null` for directories and symlinks. */
  contentType: string | null
  size: number
  /** A symlink's target. */
  target?: string
}

/** One change of a readable pull, in the order it is applied. */
export type ApplyStep = { op: 'delete'; path: string } | { op: 'put'; entry: TreeFacts }

/** True when `path` is `scope` or lies below it (`/` holds everything). */
export function isUnderScope(path: string, scope: string): boolean {
  return scope === '/' || path === scope || path.startsWith(`${scope}/`)
}

/** True when `path` is a strict ancestor of `scope`: a change there may replace the whole scope. */
export function isAboveScope(path: string, scope: string): boolean {
  return scope !== '/' && (path === '/' || scope.startsWith(`${path}/`))
}

/** Path order with parents first (segment by segment, names in UTF-16 order, as the engine's). */
export function comparePaths(a: string, b: string): number {
  const x = a.split('/')
  const y = b.split('/')
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i] as string
    const q = y[i] as string
    if (p !== q) return p < q ? -1 : 1
  }
  return x.length - y.length
}

/** True when `ours` already is what the peer has at that path (a content type counts for files). */
export function sameEntry(theirs: TreeFacts, ours: TreeFacts | undefined): boolean {
  if (ours === undefined || ours.type !== theirs.type) return false
  if (theirs.type === 'directory') return true
  if (theirs.type === 'symlink') return ours.target === theirs.target
  return ours.hash === theirs.hash && ours.contentType === theirs.contentType
}

/**
 * The steps that make the paths here what the peer has: `theirs` are the peer's entries,
 * `ours` what this side holds at those paths (and, for a full listing, every entry of the
 * scope), `removed` the paths the peer no longer has. Deletions come first, each only where
 * something is here and not under another deletion; an entry of another kind is deleted
 * before it is replaced. Puts follow parents first, leaving out what is already the same.
 */
export function planSteps(
  theirs: readonly TreeFacts[],
  ours: ReadonlyMap<string, TreeFacts>,
  removed: Iterable<string>,
): ApplyStep[] {
  const wanted = new Set(theirs.map((e) => e.path))
  const deletions = new Set<string>()
  for (const path of removed) if (ours.has(path) && !wanted.has(path)) deletions.add(path)
  const puts: TreeFacts[] = []
  for (const entry of theirs) {
    const here = ours.get(entry.path)
    if (sameEntry(entry, here)) continue
    if (here !== undefined && here.type !== entry.type) deletions.add(entry.path)
    puts.push(entry)
  }
  const steps: ApplyStep[] = []
  const deleted: string[] = []
  for (const path of [...deletions].sort(comparePaths)) {
    if (deleted.some((parent) => path.startsWith(`${parent}/`))) continue
    deleted.push(path)
    steps.push({ op: 'delete', path })
  }
  for (const entry of puts.sort((a, b) => comparePaths(a.path, b.path)))
    steps.push({ op: 'put', entry })
  return steps
}

/**
 * The paths of `ours` a full walk of the peer (`theirs`) lacks: the deletions of a full pull.
 * Nothing below a directory the peer would not list (`unlisted`) counts as lacking.
 */
export function missingFrom(
  theirs: readonly TreeFacts[],
  ours: ReadonlyMap<string, TreeFacts>,
  unlisted: readonly string[] = [],
): string[] {
  const present = new Set(theirs.map((e) => e.path))
  return [...ours.keys()].filter(
    (path) => !present.has(path) && !unlisted.some((dir) => isUnderScope(path, dir)),
  )
}
