import { isEngineError } from '@svcdb/engine'
import type { Database } from '@svcdb/engine'
import type { PeerConfig } from '../config/peer-flags'
import { PeerError } from './peer-error'
import { versionHeader } from './peer-tree-reads'
import type { PullServices } from './pull-round'

/** Times a trivial request to the peer: the round trip its clock estimate uses. */
export async function probeRoundTrip(s: PullServices, signal: AbortSignal): Promise<void> {
  const started = s.now()
  await s.http.request('GET', '/system/health', { signal })
  s.clock.roundTrip(s.now() - started)
}

/** The patch since `cursor`, or the whole HEAD when there is none or the peer lost it. */
export async function openArchive(
  s: PullServices,
  cursor: string | undefined,
  signal: AbortSignal,
): Promise<Response> {
  if (cursor !== undefined) {
    try {
      return await s.http.request('POST', `/versions/diff?from=${cursor}`, { signal })
    } catch (err) {
      // The peer collected that version: start over from its whole HEAD.
      if (!(err instanceof PeerError && err.status === 404)) throw err
    }
  }
  return s.http.request('POST', '/versions/export', { signal })
}

/** The version an archive answer leads to (its header) and its body; `INVALID_ARCHIVE` without. */
export async function targetOf(
  peer: PeerConfig,
  response: Response,
): Promise<{ target: string; body: ReadableStream<Uint8Array> }> {
  const body = response.body
  try {
    if (body === null) throw new PeerError('INVALID_ARCHIVE', `peer ${peer.name} sent no archive`)
    return { target: versionHeader(peer.name, response), body }
  } catch (err) {
    await body?.cancel().catch(() => undefined)
    throw err
  }
}

/**
 * The fork for `version` of `peer`: `peer-NAME-<12 hex>`, longer when that name holds another
 * version; `existing` when a fork of this name already holds exactly this version (an
 * earlier pull made it).
 */
export async function forkFor(
  db: Database,
  peer: string,
  version: string,
): Promise<{ name: string; existing: boolean }> {
  for (const digits of [12, 20, 32, 48]) {
    const name = `peer-${peer}-${version.slice(0, digits)}`
    try {
      const fork = await db.forks.get(name)
      if (fork.version === version) return { name, existing: true }
    } catch (err) {
      if (isEngineError(err, 'NOT_FOUND')) return { name, existing: false }
      throw err
    }
  }
  throw new PeerError(
    'CONFLICT',
    `forks named for version ${version} of peer ${peer} are all taken`,
  )
}

/** The chunks of a response body; leaving early cancels it (the peer stops sending). */
export async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  let done = false
  try {
    for (;;) {
      const next = await reader.read()
      if (next.done) {
        done = true
        return
      }
      yield next.value
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}

/**
 * The fork an earlier pull made for the peer's version `cursor` (`peer-NAME-…` still holding
 * exactly that version, so nobody wrote to it since), or undefined.
 */
export async function untouchedPeerFork(
  db: Database,
  peer: string,
  cursor: string,
): Promise<string | undefined> {
  const prefix = `peer-${peer}-`
  const forks = await db.forks.list()
  return forks.find(
    (f) =>
      f.name.startsWith(prefix) &&
      f.version === cursor &&
      cursor.startsWith(f.name.slice(prefix.length)),
  )?.name
}
