import { versionChangesPageSchema } from '@svcdb/contract'
import * as v from 'valibot'
import { PeerError } from './peer-error'
import type { PeerHttp } from './peer-http'

/** The most entries a measurement counts: past it the peer is simply far ahead. */
export const MAX_MEASURED_LAG = 10_000

/** Entries per page of the peer's changes listing (its largest page). */
const PAGE = 1000

/** What {@link measurePeerLag} compares. */
export interface PeerLagQuery {
  /** The peer's version last synced here; undefined before the first sync. */
  cursor: string | undefined
  /** The peer's version now. */
  target: string
  /** Only entries in this directory count (a peer with a path scope). */
  scope?: string
  signal: AbortSignal
}

/**
 * How many entries the peer changed between `cursor` and `target` (at most
 * {@link MAX_MEASURED_LAG}): its `GET /versions/changes?from=<cursor>&to=<target>`, page by
 * page. Without a cursor everything is missing: the entries of the peer's HEAD as its stats
 * count them (files, directories, symlinks), or undefined for a scoped peer, whose part of
 * that count is unknown. Throws what the peer answered when it did not list them.
 */
export async function measurePeerLag(
  http: PeerHttp,
  query: PeerLagQuery,
): Promise<number | undefined> {
  const { cursor, target, scope, signal } = query
  if (cursor === undefined) return scope === undefined ? headEntries(http, signal) : undefined
  const inScope = (path: string) =>
    scope === undefined || path === scope || path.startsWith(`${scope}/`)
  let count = 0
  let page: string | null = null
  do {
    const params = new URLSearchParams({ from: cursor, to: target, limit: String(PAGE) })
    if (page !== null) params.set('cursor', page)
    const res = await http.request('GET', `/versions/changes?${params}`, { signal })
    const parsed = v.safeParse(versionChangesPageSchema, await res.json().catch(() => undefined))
    if (!parsed.success)
      throw new PeerError('INVALID_RESPONSE', 'the peer listed its changes in an unknown form')
    count += parsed.output.items.filter((item) => inScope(item.path)).length
    page = parsed.output.cursor
  } while (page !== null && count < MAX_MEASURED_LAG)
  return Math.min(count, MAX_MEASURED_LAG)
}

async function headEntries(http: PeerHttp, signal: AbortSignal): Promise<number | undefined> {
  const res = await http.request('GET', '/system/stats', { signal })
  const body = (await res.json().catch(() => undefined)) as
    { counts?: { files?: unknown; directories?: unknown; symlinks?: unknown } } | undefined
  const counts = [body?.counts?.files, body?.counts?.directories, body?.counts?.symlinks]
  if (!counts.every((n): n is number => typeof n === 'number' && n >= 0)) return undefined
  return Math.min(
    counts.reduce((a, b) => a + b, 0),
    MAX_MEASURED_LAG,
  )
}
