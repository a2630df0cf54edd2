import type { Workspace } from '@svcdb/engine'
import { PeerError } from './peer-error'
import type { PeerHttp } from './peer-http'
import { filesUrl, isRefusal } from './peer-tree-reads'
import { deleteIfPresent } from './readable-staging'
import type { ApplyStep, TreeFacts } from './readable-plan'

/** Where and from what a readable pull applies its steps. */
export interface ApplyTarget {
  http: PeerHttp
  peer: string
  /** The peer's version every file is read at. */
  version: string
  /** The staging fork of this pull: nothing here is seen in HEAD before every step passed. */
  workspace: Workspace
  signal: AbortSignal
}

/** What applying did: changes made here, and files the peer refused to this key. */
export interface ApplyCount {
  applied: number
  skipped: number
}

/**
 * Applies `steps` in order to the pull's staging fork. Each file is streamed from the peer at
 * the pull's version and verified: its size before the write commits (a short or long body
 * writes nothing), its content hash (the engine computes the same one for the same bytes)
 * once written there. A file that fails either fails the pull with `INVALID_ARCHIVE`; the
 * caller then drops the staging fork, so none of it is ever in HEAD. A file the peer refuses
 * (403/404) is skipped and counted, never a failure.
 */
export async function applySteps(t: ApplyTarget, steps: readonly ApplyStep[]): Promise<ApplyCount> {
  const count: ApplyCount = { applied: 0, skipped: 0 }
  for (const step of steps) {
    if (t.signal.aborted) throw t.signal.reason
    if ((await applyStep(t, step)) === 'refused') count.skipped++
    else count.applied++
  }
  return count
}

/** Applies one step: `refused` when the peer refused its file to this key. */
async function applyStep(t: ApplyTarget, step: ApplyStep): Promise<'refused' | undefined> {
  if (step.op === 'delete') {
    await deleteIfPresent(t.workspace, step.path)
    return undefined
  }
  const { entry } = step
  if (entry.type === 'directory') await t.workspace.mkdir(entry.path)
  else if (entry.type === 'symlink') {
    if (entry.target === undefined)
      throw new PeerError(
        'INVALID_ARCHIVE',
        `peer ${t.peer} sent symlink ${entry.path} without its target`,
      )
    await t.workspace.symlink(entry.path, entry.target)
  } else return copyFile(t, entry)
  return undefined
}

/** Copies one file from the peer, verified; `refused` when the peer refused it to this key. */
async function copyFile(t: ApplyTarget, entry: TreeFacts): Promise<'refused' | undefined> {
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
  const metadata = metadataOf(res.headers.get('x-svcdb-metadata'))
  const written = await t.workspace.writeFile(entry.path, sized(res.body, entry.size, invalid), {
    contentType: entry.contentType ?? 'application/octet-stream',
    signal: t.signal,
    ...(metadata === undefined ? {} : { metadata }),
  })
  if (written.hash === entry.hash) return undefined
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
