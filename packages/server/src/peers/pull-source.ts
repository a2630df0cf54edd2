import type { Database } from '@svcdb/engine'
import { MAX_SKIPPED_CHUNKS } from '../routes/versions/skip-chunks'
import { PeerError } from './peer-error'
import { versionHeader } from './peer-tree-reads'
import { chunksOf, openArchive, targetOf } from './pull-archive'
import type { PullServices } from './pull-round'

/** Chunk ids looked up here at once while a listing arrives. */
const LOOKUP_BATCH = 4096
const ID_BYTES = 32
/** Most ids of a listing read (an import takes at most 10,000,000 frames); the rest are sent. */
const MAX_LISTED = 10_000_000

/** The peer's version a pull leads to and, when wanted, its archive. */
export interface PullSource {
  /** The peer's version (hex), known before any archive byte is sent. */
  readonly target: string
  /**
   * The archive: the patch since the cursor, or the whole version when there is no cursor or
   * the peer collected it, without the chunks this deployment holds.
   */
  body(): Promise<ReadableStream<Uint8Array>>
  /** Gives the pull up without transferring it. */
  cancel(): Promise<void>
}

/**
 * Opens a pull of the peer's HEAD. First the ids of the chunks the archive would carry
 * (`GET /versions/chunks`, which also names the version): those stored here, from an earlier
 * pull cut short or from this deployment's own writes, are named in the archive request so
 * they are not sent again. A peer without that listing (an older server) sends its archive
 * whole.
 */
export async function openPullSource(
  s: PullServices,
  cursor: string | undefined,
  signal: AbortSignal,
): Promise<PullSource> {
  let base = cursor
  let listing = base === undefined ? undefined : await listChunks(s, base, signal)
  if (listing === undefined) {
    base = undefined
    listing = await listChunks(s, undefined, signal)
  }
  if (listing === undefined) return archiveSource(s, cursor, signal)
  const ids = listing.body
  let target: string
  try {
    target = versionHeader(s.peer.name, listing)
  } catch (err) {
    await ids?.cancel().catch(() => undefined)
    throw err
  }
  return {
    target,
    async body() {
      const held = await heldChunks(s.db, ids, signal)
      const path =
        base === undefined
          ? `/versions/export?hash=${target}`
          : `/versions/diff?from=${base}&to=${target}`
      const opened = await targetOf(s.peer, await requestArchive(s, path, held, signal))
      if (opened.target !== target) {
        await opened.body.cancel().catch(() => undefined)
        throw new PeerError(
          'INVALID_ARCHIVE',
          `peer ${s.peer.name} sent version ${opened.target} when ${target} was asked for`,
        )
      }
      return opened.body
    },
    cancel: async () => {
      await ids?.cancel().catch(() => undefined)
    },
  }
}

/** The listing of the chunks from `from` (all of HEAD without), or undefined on a 404. */
async function listChunks(
  s: PullServices,
  from: string | undefined,
  signal: AbortSignal,
): Promise<Response | undefined> {
  const query = from === undefined ? '' : `?from=${from}`
  try {
    return await s.http.request('GET', `/versions/chunks${query}`, { signal })
  } catch (err) {
    // The peer collected `from`, or does not know the route (then neither try answers).
    if (err instanceof PeerError && err.status === 404) return undefined
    throw err
  }
}

/**
 * The archive at `path`, leaving out the `held` chunks; asked for again without that list
 * when something between the two sides refuses a body that large (a proxy's 413).
 */
async function requestArchive(
  s: PullServices,
  path: string,
  held: Uint8Array,
  signal: AbortSignal,
): Promise<Response> {
  if (held.length === 0) return s.http.request('POST', path, { signal })
  const headers = { 'content-type': 'application/octet-stream' }
  try {
    return await s.http.request('POST', path, { signal, body: held, headers })
  } catch (err) {
    if (!(err instanceof PeerError && err.status === 413)) throw err
    return s.http.request('POST', path, { signal })
  }
}

/** The archive answer of a peer that cannot list chunks: everything since the cursor is sent. */
async function archiveSource(
  s: PullServices,
  cursor: string | undefined,
  signal: AbortSignal,
): Promise<PullSource> {
  const { target, body } = await targetOf(s.peer, await openArchive(s, cursor, signal))
  return {
    target,
    body: async () => body,
    cancel: async () => {
      await body.cancel().catch(() => undefined)
    },
  }
}

/**
 * The ids of a listing that this database stores, concatenated: at most `MAX_SKIPPED_CHUNKS`
 * of the first `MAX_LISTED` listed (the rest are simply sent). The lookup keeps nothing from
 * GC (that is for uploads): the import checks every chunk it references again, and one
 * collected meanwhile fails it with nothing applied; the next pull is sent it.
 */
async function heldChunks(
  db: Database,
  listing: ReadableStream<Uint8Array> | null,
  signal: AbortSignal,
): Promise<Uint8Array> {
  if (listing === null) return new Uint8Array(0)
  const held: Buffer[] = []
  let listed = 0
  let pending = Buffer.alloc(0)
  const lookUp = async (ids: Buffer): Promise<void> => {
    const hex: string[] = []
    for (let at = 0; at + ID_BYTES <= ids.length; at += ID_BYTES)
      hex.push(ids.subarray(at, at + ID_BYTES).toString('hex'))
    listed += hex.length
    const missing = new Set(await db.missingChunks(hex, { hold: false }))
    for (const id of hex)
      if (!missing.has(id) && held.length < MAX_SKIPPED_CHUNKS) held.push(Buffer.from(id, 'hex'))
  }
  for await (const part of chunksOf(listing)) {
    signal.throwIfAborted()
    // Leaving the loop cancels the listing: nothing more could be left out.
    if (held.length >= MAX_SKIPPED_CHUNKS || listed >= MAX_LISTED) return Buffer.concat(held)
    pending = pending.length === 0 ? Buffer.from(part) : Buffer.concat([pending, part])
    const whole = pending.length - (pending.length % ID_BYTES)
    if (whole >= LOOKUP_BATCH * ID_BYTES) {
      await lookUp(pending.subarray(0, whole))
      pending = pending.subarray(whole)
    }
  }
  if (pending.length % ID_BYTES !== 0)
    throw new PeerError('INVALID_ARCHIVE', 'the peer listed chunk ids that are not 32 bytes each')
  await lookUp(pending)
  return Buffer.concat(held)
}
