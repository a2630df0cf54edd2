import type { Access } from '@svcdb/auth'
import { isEngineError } from '@svcdb/engine'
import type { OpenedEntry, TreeView } from '@svcdb/engine'
import type { Context } from 'hono'
import { entryView } from '../../dto/entry-views'
import { ServerError } from '../../errors/server-error'
import type { AppEnv } from '../../routing/app-env'
import { answerWithParts, canAnswerWithParts } from '../../routing/direct-body'
import { parseRange } from './byte-range'
import { listDirectory } from './directory-listing'
import type { ReadQuery } from './read-source'
import { guardedReadStream } from './guarded-read-stream'
import { servedContentType } from './served-content-type'
import { allow } from './file-access'

/**
 * Files up to this size are read whole and sent as one buffer: a stream costs more than the
 * bytes for them (measured: web-stream plumbing dominated 4 KiB reads). Memory stays bounded:
 * at most this much per request in flight.
 */
export const SMALL_FILE_BYTES = 64 * 1024

const quoted = (hash: string) => `"${hash}"`

/** Answers a read of `path`: a file's bytes (with HTTP caching and ranges) or a listing. */
export async function answerRead(
  c: Context<AppEnv>,
  source: TreeView,
  access: Access,
  path: string,
  query: ReadQuery,
  head: boolean,
): Promise<Response> {
  allow(access, path, 'read')
  // One walk of the tree: the headers and the bytes come from the same file object.
  const opened = await resolveForRead(source, path, !query.nofollow)
  const { entry } = opened
  if (query.stat) {
    allowTarget(access, path, entry.path, 'read')
    return c.json(entryView(entry, access.scoped ? access.permissions(entry.path) : undefined), 200)
  }
  if (entry.entryType === 'directory') {
    allowTarget(access, path, entry.path, 'list')
    return c.json(await listDirectory(source, access, entry, query), 200)
  }
  if (entry.entryType === 'symlink')
    return c.json(entryView(entry, access.scoped ? access.permissions(entry.path) : undefined), 200)
  allowTarget(access, path, entry.path, 'read')
  const headers: Record<string, string> = {
    ETag: quoted(entry.hash),
    'Accept-Ranges': 'bytes',
    'Content-Type': servedContentType(entry.contentType),
    'Last-Modified': new Date(entry.updatedAt).toUTCString(),
    'X-Svcdb-Created-At': String(entry.createdAt),
    'X-Svcdb-Updated-At': String(entry.updatedAt),
  }
  if (entry.metadata !== undefined)
    headers['X-Svcdb-Metadata'] = encodeURIComponent(JSON.stringify(entry.metadata))
  const ifNoneMatch = c.req.header('if-none-match')
  if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, entry.hash))
    return c.body(null, 304, headers)
  const range = parseRange(c.req.header('range'), entry.size)
  if (range === 'unsatisfiable') {
    // An error answer like any other (JSON), still telling the size as RFC 9110 §15.5.17 asks.
    // Not the file's Content-Type: the body is the JSON error.
    throw new ServerError(
      'RANGE_NOT_SATISFIABLE',
      `the requested range lies outside the file's ${entry.size} bytes`,
      {
        headers: {
          ETag: headers.ETag as string,
          'Accept-Ranges': 'bytes',
          'Content-Range': `bytes */${entry.size}`,
        },
      },
    )
  }
  const start = range?.start ?? 0
  const end = range?.end ?? entry.size - 1
  const length = entry.size === 0 ? 0 : end - start + 1
  headers['Content-Length'] = String(length)
  if (range !== undefined) headers['Content-Range'] = `bytes ${start}-${end}/${entry.size}`
  const status = range === undefined ? 200 : 206
  if (head || length === 0) return c.body(null, status, headers)
  if (entry.size <= SMALL_FILE_BYTES) {
    const bytes = await opened.read({ start, end })
    return c.body(bytes as Uint8Array<ArrayBuffer>, status, headers)
  }
  const report = c.get('reportError') ?? (() => undefined)
  if (canAnswerWithParts(c))
    return answerWithParts(c, status, headers, opened.parts({ start, end }), report)
  const stream = opened.stream({ start, end })
  return c.body(await guardedReadStream(stream, report), status, headers)
}

/** The answer to a path that leads nowhere the caller may go: the same whatever the reason. */
const noSuchPath = (path: string) =>
  new ServerError('NOT_FOUND', `no such file or directory: ${path}`)

/**
 * Resolves `path` for a read. Through a symlink, a missing target and a target elsewhere
 * must look alike, or links would tell whether any path exists: every failure to resolve is
 * one `NOT_FOUND` naming only the path asked for.
 */
async function resolveForRead(
  source: TreeView,
  path: string,
  follow: boolean,
): Promise<OpenedEntry> {
  try {
    return await source.open(path, { follow })
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND') || isEngineError(err, 'NOT_A_DIRECTORY'))
      throw noSuchPath(path)
    throw err
  }
}

/**
 * Checks `operation` on the entry a read reached. When a symlink led elsewhere, a denial is
 * answered as if the target did not exist (spec rule 8), never naming the target.
 */
function allowTarget(access: Access, path: string, reached: string, operation: 'read' | 'list') {
  if (reached === path) allow(access, reached, operation)
  else if (!access.allows(reached, operation)) throw noSuchPath(path)
}

function matchesEtag(header: string, hash: string): boolean {
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === quoted(hash))
}
