import { isEngineError } from '@svcdb/engine'
import type { Database, Workspace } from '@svcdb/engine'
import { PeerError } from './peer-error'
import type { PeerHttp } from './peer-http'
import { filesUrl, isRefusal } from './peer-tree-reads'
import { isUnderScope } from './readable-plan'
import type { ApplyStep, TreeFacts } from './readable-plan'

/** Where and from what a readable pull applies its steps. */
export interface ApplyTarget {
  http: PeerHttp
  peer: string
  /** The peer's version every file is read at. */
  version: string
  /** HEAD (the database itself) or a fork made for this pull. */
  workspace: Workspace
  /** The database, when `workspace` is HEAD: a file that fails verification is put back. */
  head?: Database
  /** The pull's scope: a commit of someone else there meanwhile is noticed. */
  scope: string
  /** The version of HEAD the steps were planned against. */
  plannedAt?: string
  signal: AbortSignal
}

/** What applying did: changes made here, and files the peer refused to this key. */
export interface ApplyCount {
  applied: number
  skipped: number
  /** The version the last change made (undefined when none did). */
  version?: string
  /**
   * True when someone else changed the scope in HEAD while the steps were applied: HEAD's
   * scope then mixes theirs and the peer's, which the next pull must not take for the peer's.
   */
  interleaved: boolean
}

/**
 * Applies `steps` in order. Each file is streamed from the peer at the pull's version and
 * verified: its size before the write commits (a short or long body writes nothing), its
 * content hash (the engine computes the same one for the same bytes) once written. A file
 * that fails either fails the pull with `INVALID_ARCHIVE`, and on HEAD what was there is put
 * back. A file the peer refuses (403/404) is skipped and counted, never a failure.
 */
export async function applySteps(t: ApplyTarget, steps: readonly ApplyStep[]): Promise<ApplyCount> {
  const count: ApplyCount = { applied: 0, skipped: 0, interleaved: false }
  for (const step of steps) {
    if (t.signal.aborted) throw t.signal.reason
    const expected = count.version ?? t.plannedAt
    const version = await applyStep(t, step)
    if (version === 'refused') {
      count.skipped++
      continue
    }
    count.applied++
    if (version === undefined) continue
    count.version = version
    if (expected !== undefined && !count.interleaved)
      count.interleaved = await othersChanged(t, expected, version, pathOf(step))
  }
  return count
}

const pathOf = (step: ApplyStep) => (step.op === 'delete' ? step.path : step.entry.path)

/**
 * True when HEAD went from `from` (our last change) to `to` (this step's) with more than the
 * step at `path` in the scope: someone else wrote there in between.
 */
async function othersChanged(
  t: ApplyTarget,
  from: string,
  to: string,
  path: string,
): Promise<boolean> {
  if (t.head === undefined) return false
  const related = (p: string) =>
    p === path || path.startsWith(`${p}/`) || p.startsWith(`${path}/`) || !isUnderScope(p, t.scope)
  for await (const difference of t.head.diffEntries({ from, to, signal: t.signal }))
    if (!related(difference.path)) return true
  return false
}

/** Applies one step: the version it made, undefined when nothing changed, or `refused`. */
async function applyStep(t: ApplyTarget, step: ApplyStep): Promise<string | undefined> {
  if (step.op === 'delete') return deleteIfPresent(t.workspace, step.path)
  const { entry } = step
  if (entry.type === 'directory') return (await t.workspace.mkdir(entry.path)).version
  if (entry.type === 'symlink') {
    if (entry.target === undefined)
      throw new PeerError(
        'INVALID_ARCHIVE',
        `peer ${t.peer} sent symlink ${entry.path} without its target`,
      )
    return (await t.workspace.symlink(entry.path, entry.target)).version
  }
  return copyFile(t, entry)
}

async function deleteIfPresent(workspace: Workspace, path: string): Promise<string | undefined> {
  try {
    return (await workspace.delete(path, { recursive: true })).version
  } catch (err) {
    // Already gone (a repeated apply): the wanted state.
    if (!isEngineError(err, 'NOT_FOUND') && !isEngineError(err, 'NOT_A_DIRECTORY')) throw err
    return undefined
  }
}

/** Copies one file from the peer: the version written, or `refused` by the peer to this key. */
async function copyFile(t: ApplyTarget, entry: TreeFacts): Promise<string | 'refused'> {
  let res: Response
  try {
    res = await t.http.request('GET', `${filesUrl(entry.path)}?version=${t.version}`, {
      signal: t.signal,
    })
  } catch (err) {
    if (isRefusal(err)) return 'refused'
    throw err
  }
  const invalid = (why: string) =>
    new PeerError(
      'INVALID_ARCHIVE',
      `peer ${t.peer} sent ${entry.path} ${why}; nothing of it was kept`,
    )
  const etag = res.headers.get('etag')?.replaceAll('"', '').toLowerCase()
  if (etag !== entry.hash || res.body === null) {
    await res.body?.cancel().catch(() => undefined)
    throw invalid(`with ETag ${etag ?? 'none'} where its entry says ${entry.hash}`)
  }
  const before = t.head === undefined ? undefined : t.head.head()
  const existed = before !== undefined && (await present(t.workspace, entry.path))
  const metadata = metadataOf(res.headers.get('x-svcdb-metadata'))
  const written = await t.workspace.writeFile(entry.path, sized(res.body, entry.size, invalid), {
    contentType: entry.contentType ?? 'application/octet-stream',
    signal: t.signal,
    ...(metadata === undefined ? {} : { metadata }),
  })
  if (written.hash === entry.hash) return written.version
  if (t.head !== undefined && before !== undefined) {
    if (existed) await t.head.restoreFile(entry.path, { version: before })
    else await deleteIfPresent(t.head, entry.path)
  }
  throw invalid(
    `whose bytes hash to ${written.hash}, not ${entry.hash} (do both deployments use the same hash algorithm?)`,
  )
}

/**
 * The body's bytes, failing before the last one when there are more or fewer than `size`: the
 * write then fails inside the engine and nothing is committed.
 */
async function* sized(
  body: ReadableStream<Uint8Array>,
  size: number,
  invalid: (why: string) => PeerError,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  let seen = 0
  let done = false
  try {
    for (;;) {
      const next = await reader.read()
      if (next.done) break
      seen += next.value.length
      if (seen > size) throw invalid(`longer than its ${size} bytes`)
      yield next.value
    }
    done = true
    if (seen !== size) throw invalid(`with ${seen} of its ${size} bytes`)
  } finally {
    if (!done) await reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}

async function present(workspace: Workspace, path: string): Promise<boolean> {
  try {
    await workspace.stat(path, { follow: false })
    return true
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND') || isEngineError(err, 'NOT_A_DIRECTORY')) return false
    throw err
  }
}

function metadataOf(header: string | null): Record<string, unknown> | undefined {
  if (header === null) return undefined
  try {
    const value: unknown = JSON.parse(decodeURIComponent(header))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
