import { randomUUID } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { ClientError } from '../errors'
import { abortError } from '../http/abort'
import type { VersionSelector, WholeReadOptions } from '../resources/file-reads'
import type { FilesApi } from '../resources/files'

/** Options of `files.download`. */
export type DownloadOptions = WholeReadOptions

/** What `files.download` wrote. */
export interface DownloadResult {
  /** The local file, as given. */
  localFile: string
  /** Bytes written. */
  size: number
  /** The content hash of the file read. */
  hash: string
  contentType: string
}

/**
 * Streams the file at `path` to `localFile`: the bytes go to a temporary file beside it,
 * which is flushed to disk (`fdatasync`) and then renamed over `localFile`. A download that
 * fails (cut connection, abort, full disk) removes the temporary file, so `localFile` is
 * either the whole new file or what it was before, never half of one.
 *
 * Server failures are `ClientError`s (`NOT_FOUND`, `NETWORK_ERROR`, `ABORTED`, `BAD_REQUEST`
 * for a directory…); local ones
 * are Node's errors (`ENOENT` for a missing directory, `EISDIR`…) naming `localFile`.
 */
export async function downloadFile(
  files: Pick<FilesApi, 'read'>,
  path: string,
  localFile: string,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  const { signal } = options
  const selector: VersionSelector & { signal?: AbortSignal } = { ...options }
  // Asked before anything is created, so a missing file leaves nothing behind.
  const download = await files.read(path, selector)
  if (download === undefined) throw new TypeError('unreachable: no ifNoneMatch was sent')
  // A directory answers its listing, which has no content hash: not a file to save.
  if (download.hash === '') {
    await download.body.cancel().catch(() => undefined)
    throw new ClientError('BAD_REQUEST', `${path} is a directory, not a file to download`, {
      status: 200,
    })
  }
  const temporary = join(dirname(localFile), `.${basename(localFile)}.${randomUUID()}.part`)
  let handle: FileHandle | undefined
  try {
    handle = await local(localFile, () => open(temporary, 'wx'))
    const written = await copyBody(download.body, handle, localFile, signal)
    // A length the server announced but did not deliver is a cut connection.
    if (written !== download.size)
      throw new ClientError(
        'NETWORK_ERROR',
        `the answer was cut off: ${written} of ${download.size} bytes of ${path}`,
        { status: 200 },
      )
    // On disk before the rename, so a crash never leaves a renamed but empty file.
    const file = handle
    await local(localFile, () => file.datasync())
    handle = undefined
    await local(localFile, () => file.close())
    await local(localFile, () => rename(temporary, localFile))
    return { localFile, size: written, hash: download.hash, contentType: download.contentType }
  } catch (err) {
    await download.body.cancel().catch(() => undefined)
    await handle?.close().catch(() => undefined)
    await rm(temporary, { force: true })
    throw err
  }
}

/** Writes `body` to `handle`, telling a failed read (the server's side) from a failed write. */
async function copyBody(
  body: ReadableStream<Uint8Array>,
  handle: FileHandle,
  localFile: string,
  signal: AbortSignal | undefined,
): Promise<number> {
  const reader = body.getReader()
  let written = 0
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>
    try {
      next = await reader.read()
    } catch (err) {
      if (signal?.aborted === true) throw abortError(signal)
      throw new ClientError('NETWORK_ERROR', `the answer was cut off: ${String(err)}`, {
        status: 200,
        cause: err,
      })
    }
    if (next.done) return written
    const bytes = next.value
    await local(localFile, () => handle.write(bytes))
    written += bytes.length
  }
}

/** Runs a file-system step; its error names `localFile` instead of the temporary file. */
async function local<T>(localFile: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const error = new Error(`cannot write ${localFile}: ${code ?? String(err)}`, { cause: err })
    Object.assign(error, { code, path: localFile })
    throw error
  }
}
