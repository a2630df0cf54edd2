import { entryViewSchema, routes } from '@svcdb/contract'
import type { EntryView } from '@svcdb/contract'
import * as v from 'valibot'
import { ClientError, isClientError } from '../errors'
import { readBody } from '../http/read-body'
import type { CallOptions } from '../http/route-types'
import type { Transport } from '../http/transport'

/** Which version a read looks at: HEAD by default, a fork, a snapshot or a version hash. */
export interface VersionSelector {
  fork?: string
  snapshot?: string
  version?: string
}

/** Options of `files.read`. */
export interface ReadOptions extends CallOptions, VersionSelector {
  /** An inclusive byte range; `end` defaults to the last byte. */
  range?: { start: number; end?: number }
  /** Answer `notModified` instead of the bytes when the content hash is still this. */
  ifNoneMatch?: string
}

/** A file being downloaded. */
export interface Download {
  /** The bytes (of the range, if one was asked), streamed. */
  body: ReadableStream<Uint8Array>
  /** Length of `body`. */
  size: number
  /** The file's whole size. */
  totalSize: number
  contentType: string
  /** The content hash (the `ETag` without quotes). */
  hash: string
  /** `bytes start-end/total` when a range was served. */
  contentRange: string | undefined
}

/** Options of the whole-file reads (`readBytes`, `readText`, `readJson`, `exists`). */
export type WholeReadOptions = VersionSelector & CallOptions

/** The reading calls of `files`. */
export interface FileReads {
  read(path: string, options?: ReadOptions): Promise<Download | undefined>
  readBytes(path: string, options?: WholeReadOptions): Promise<Uint8Array>
  readText(path: string, options?: WholeReadOptions): Promise<string>
  readJson<T = unknown>(path: string, options?: WholeReadOptions): Promise<T>
  exists(path: string, options?: WholeReadOptions): Promise<boolean>
  stat(path: string, options?: WholeReadOptions & { nofollow?: boolean }): Promise<EntryView>
}

const unquote = (etag: string | null) => (etag ?? '').replace(/^W\//, '').replace(/"/g, '')

/** The query naming a version, as every read sends it. */
export function selector(options: VersionSelector) {
  return { fork: options.fork, snapshot: options.snapshot, version: options.version }
}

/** @internal */
export function fileReads(t: Transport): FileReads {
  const params = (path: string) => ({ path })

  const readBytes = async (path: string, options: WholeReadOptions = {}) => {
    const response = await t.send(routes.filesRead, {
      params: params(path),
      query: selector(options),
      signal: options.signal,
    })
    return new Uint8Array(await readBody(response, (r) => r.arrayBuffer(), options.signal))
  }
  const readText = async (path: string, options?: WholeReadOptions) =>
    new TextDecoder().decode(await readBytes(path, options))

  const stat = async (path: string, options: WholeReadOptions & { nofollow?: boolean } = {}) => {
    const response = await t.send(routes.filesRead, {
      params: params(path),
      query: { ...selector(options), stat: true, nofollow: options.nofollow },
      signal: options.signal,
    })
    const result = v.safeParse(
      entryViewSchema,
      await t.parse(routes.filesRead, response, options.signal),
    )
    if (!result.success)
      throw new ClientError('INVALID_RESPONSE', `${path}: the answer is not an entry`, {
        status: response.status,
      })
    return result.output
  }

  return {
    async read(path, options = {}) {
      const headers: Record<string, string> = {}
      if (options.range !== undefined)
        headers.range = `bytes=${options.range.start}-${options.range.end ?? ''}`
      if (options.ifNoneMatch !== undefined) headers['if-none-match'] = `"${options.ifNoneMatch}"`
      const response = await t.send(routes.filesRead, {
        params: params(path),
        query: selector(options),
        headers,
        signal: options.signal,
        accept: [304],
      })
      if (response.status === 304) return undefined
      const contentRange = response.headers.get('content-range') ?? undefined
      const size = Number(response.headers.get('content-length') ?? '0')
      return {
        body: response.body ?? new ReadableStream({ start: (c) => c.close() }),
        size,
        totalSize: contentRange === undefined ? size : Number(contentRange.split('/')[1]),
        contentType: response.headers.get('content-type') ?? 'application/octet-stream',
        hash: unquote(response.headers.get('etag')),
        contentRange,
      }
    },
    readBytes,
    readText,
    async readJson<T>(path: string, options?: WholeReadOptions): Promise<T> {
      const text = await readText(path, options)
      try {
        return JSON.parse(text) as T
      } catch (err) {
        // The file exists and was read: its bytes are the problem, not the server.
        throw new ClientError('INVALID_JSON', `${path} is not JSON: ${(err as Error).message}`, {
          status: 200,
          cause: err,
        })
      }
    },
    async exists(path, options = {}) {
      try {
        await stat(path, options)
        return true
      } catch (err) {
        // Only "nothing there" is an answer; a refused credential or a lost connection is not.
        if (isClientError(err, 'NOT_FOUND')) return false
        throw err
      }
    },
    stat,
  }
}
