import { entryViewSchema, listingSchema, versionChangesPageSchema } from '@svcdb/contract'
import type { EntryView, VersionChangeView } from '@svcdb/contract'
import { normalizePath } from '@svcdb/engine'
import { ARCHIVE_VERSION_HEADER } from '../routes/versions/archive-response'
import { PeerError } from './peer-error'
import type { PeerHttp } from './peer-http'
import { readPeerJson } from './peer-json-body'
import { isUnderScope } from './readable-plan'
import type { TreeFacts } from './readable-plan'

const HEX = /^[0-9a-f]{64}$/
const PAGE = 1000

/**
 * The most entries one pull takes from a peer (changes, or a walk): a peer that pages on
 * without end fails the round with `PEER_ANSWER_TOO_LARGE` instead of filling memory.
 */
export const PEER_ENTRY_LIMIT = 1_000_000

/** `/files` followed by `path`, each name percent-encoded. */
export function filesUrl(path: string): string {
  return `/files${path === '/' ? '/' : path.split('/').map(encodeURIComponent).join('/')}`
}

/** True for the answers by which a peer refuses a path to this key (or lacks it). */
export function isRefusal(err: unknown): boolean {
  return err instanceof PeerError && (err.status === 403 || err.status === 404)
}

/** The version a peer's archive or read answer names (`svcdb-version`); `INVALID_ARCHIVE` without. */
export function versionHeader(peer: string, response: Response): string {
  const version = response.headers.get(ARCHIVE_VERSION_HEADER)?.toLowerCase() ?? ''
  if (!HEX.test(version))
    throw new PeerError(
      'INVALID_ARCHIVE',
      `peer ${peer} did not name the version of its answer (${ARCHIVE_VERSION_HEADER}); is it older than this server?`,
    )
  return version
}

/** A peer's entry view as facts, its path checked to lie under `scope`. */
export function factsOf(peer: string, view: EntryView, scope: string): TreeFacts {
  let path: string
  try {
    path = normalizePath(view.path)
  } catch {
    path = ''
  }
  if (path !== view.path || !isUnderScope(path, scope))
    throw new PeerError(
      'INVALID_ARCHIVE',
      `peer ${peer} answered an entry outside ${scope}: ${JSON.stringify(view.path.slice(0, 200))}`,
    )
  const facts: TreeFacts = {
    path,
    type: view.entry_type,
    hash: view.hash.toLowerCase(),
    contentType: view.content_type,
    size: view.size,
  }
  if (view.target !== undefined) facts.target = view.target
  return facts
}

/**
 * The peer's HEAD as this key reads `scope`: the version (`svcdb-version` of a stat of the
 * scope) and the scope's entry there, undefined when the peer lacks it or hides it (the
 * version is then read from a stat of the root). For the whole tree (`/`) there is no entry.
 */
export async function peerHead(
  http: PeerHttp,
  peer: string,
  scope: string,
  signal: AbortSignal,
): Promise<{ version: string; top: TreeFacts | undefined }> {
  try {
    const res = await http.request('GET', `${filesUrl(scope)}?stat=true&nofollow=true`, { signal })
    const version = versionHeader(peer, res)
    const view = await readPeerJson(peer, entryViewSchema, res)
    return { version, top: scope === '/' ? undefined : factsOf(peer, view, scope) }
  } catch (err) {
    if (scope === '/' || !isRefusal(err)) throw err
  }
  const res = await http.request('GET', '/files/?stat=true', { signal })
  await res.body?.cancel().catch(() => undefined)
  return { version: versionHeader(peer, res), top: undefined }
}

/** One entry of the peer at `version` (not following a symlink), or undefined when refused. */
export async function peerStat(
  http: PeerHttp,
  peer: string,
  path: string,
  version: string,
  scope: string,
  signal: AbortSignal,
): Promise<TreeFacts | undefined> {
  let res: Response
  try {
    res = await http.request(
      'GET',
      `${filesUrl(path)}?stat=true&nofollow=true&version=${version}`,
      { signal },
    )
  } catch (err) {
    if (isRefusal(err)) return undefined
    throw err
  }
  return factsOf(peer, await readPeerJson(peer, entryViewSchema, res), scope)
}

/** What a walk of the peer's tree found: entries, and directories it may not list. */
export interface PeerWalk {
  entries: TreeFacts[]
  /** Directories the peer refused to list: what lies below them here is left alone. */
  unlisted: string[]
}

/**
 * Every entry below `dir` at `version` that this key may see: files, directories and
 * symlinks (a listing of depth -1 holds files only), directory by directory, all pages.
 */
export async function peerWalk(
  http: PeerHttp,
  peer: string,
  dir: string,
  version: string,
  scope: string,
  signal: AbortSignal,
): Promise<PeerWalk> {
  const walk: PeerWalk = { entries: [], unlisted: [] }
  const pending = [dir]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const listed = await peerChildren(http, peer, next, version, scope, signal)
    if (listed === undefined) {
      walk.unlisted.push(next)
      continue
    }
    for (const entry of listed) {
      if (walk.entries.length >= PEER_ENTRY_LIMIT) throw tooMany(peer, 'entries in its walk')
      walk.entries.push(entry)
      if (entry.type === 'directory') pending.push(entry.path)
    }
  }
  return walk
}

/** The children of `dir` at `version`, all pages; undefined when the peer refuses it. */
async function peerChildren(
  http: PeerHttp,
  peer: string,
  dir: string,
  version: string,
  scope: string,
  signal: AbortSignal,
): Promise<TreeFacts[] | undefined> {
  const out: TreeFacts[] = []
  const parent = dir === '/' ? '/' : `${dir}/`
  let after: string | undefined
  for (;;) {
    const query = `limit=${PAGE}&version=${version}${after === undefined ? '' : `&after=${encodeURIComponent(after)}`}`
    let res: Response
    try {
      res = await http.request('GET', `${filesUrl(dir)}?${query}`, { signal })
    } catch (err) {
      if (isRefusal(err) && after === undefined) return undefined
      throw err
    }
    const page = await readPeerJson(peer, listingSchema, res)
    for (const item of page.items) {
      const entry = factsOf(peer, item, scope)
      // A child, one level down: anything else would make the walk go where it was not asked.
      if (!entry.path.startsWith(parent) || entry.path.slice(parent.length).includes('/'))
        throw new PeerError('INVALID_ARCHIVE', `peer ${peer} listed ${entry.path} in ${dir}`)
      out.push(entry)
    }
    if (page.next === undefined || page.items.length === 0) return out
    // An honest peer's next page starts after this one: the same place again would loop.
    if (page.next === after)
      throw new PeerError('INVALID_ARCHIVE', `peer ${peer} listed ${dir} in pages that repeat`)
    if (out.length >= PEER_ENTRY_LIMIT) throw tooMany(peer, `entries in ${dir}`)
    after = page.next
  }
}

/**
 * What differs between `from` and `to` on the peer among what this key may read (all
 * pages), or undefined when the peer no longer knows `from`.
 */
export async function peerChanges(
  http: PeerHttp,
  peer: string,
  from: string,
  to: string,
  signal: AbortSignal,
): Promise<VersionChangeView[] | undefined> {
  const out: VersionChangeView[] = []
  const seen = new Set<string>()
  let cursor: string | null = null
  do {
    const query: string = `from=${from}&to=${to}&limit=${PAGE}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`
    let res: Response
    try {
      res = await http.request('GET', `/versions/changes?${query}`, { signal })
    } catch (err) {
      if (err instanceof PeerError && err.status === 404 && cursor === null) return undefined
      throw err
    }
    const page = await readPeerJson(peer, versionChangesPageSchema, res)
    // A page with a next one is full on an honest peer, and its cursor moves on.
    if (page.cursor !== null && (page.items.length === 0 || seen.has(page.cursor)))
      throw new PeerError(
        'INVALID_ARCHIVE',
        `peer ${peer} answered GET /versions/changes with pages that do not move on`,
      )
    if (out.length + page.items.length > PEER_ENTRY_LIMIT) throw tooMany(peer, 'changes')
    out.push(...page.items)
    cursor = page.cursor
    if (cursor !== null) seen.add(cursor)
  } while (cursor !== null)
  return out
}

function tooMany(peer: string, what: string): PeerError {
  return new PeerError(
    'PEER_ANSWER_TOO_LARGE',
    `peer ${peer} sent more than ${PEER_ENTRY_LIMIT} ${what}; a pull takes at most that many`,
  )
}
