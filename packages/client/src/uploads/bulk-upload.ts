import { MAX_COMMIT_MANY_FILES, routes } from '@svcdb/contract'
import type { CommitManyFile, CommitManyResultView } from '@svcdb/contract'
import { chunkStream } from '@svcdb/engine/chunking'
import { throwIfAborted } from '../http/abort'
import type { Transport } from '../http/transport'
import { chunkHash, contentHash } from './chunk-hash'
import { sendMissing } from './send-missing'
import type { HashedChunk } from './send-missing'
import { readSource } from './upload-source'
import type { UploadSource } from './upload-source'

/** A file of `files.uploadMany`. */
export interface UploadManyFile {
  /** Where to write it (parents are created). */
  path: string
  /**
   * Its content; a function is called only when the file's turn comes, so a long list of
   * files opens one at a time (e.g. `() => fs.createReadStream(local)`).
   */
  source: UploadSource | (() => UploadSource | Promise<UploadSource>)
  /** Stored as given; `application/octet-stream` when absent. */
  contentType?: string
  /** User metadata stored with the file: a JSON object of at most 64 KiB. */
  metadata?: Record<string, unknown>
}

/**
 * Progress of `files.uploadMany`, reported after every chunk read, every chunk the server
 * stored, every answer about which chunks it already has, every file and every commit.
 */
export interface UploadManyProgress {
  /** Files read so far. */
  files: number
  /** Files committed so far. */
  filesCommitted: number
  /** Bytes read from the sources so far. */
  bytesRead: number
  /** Bytes of chunks the server lacked, sent and stored so far (one chunk at a time). */
  bytesSent: number
  /**
   * Bytes read that the server now holds: sent, or found there already. It ends at
   * `bytesRead`, the total, once every file is uploaded.
   */
  bytesDone: number
  /** Commit requests done so far (each made one version). */
  commits: number
}

/** Options of `files.uploadMany`. */
export interface UploadManyOptions {
  fork?: string
  signal?: AbortSignal
  onProgress?: (progress: UploadManyProgress) => void
  /** Called with each commit's answer: the version it made and every file it wrote. */
  onCommitted?: (result: CommitManyResultView) => void
  /** Chunks checked and sent per round (default 256); fewer when they reach 8 MiB. */
  batchChunks?: number
  /** Chunk uploads in flight at once (default 4). */
  concurrency?: number
  /** Files per commit request (default and at most 10,000, the server's limit). */
  filesPerCommit?: number
  /** Bytes of JSON per commit request (default 960,000, under the server's 1 MB limit). */
  commitBytes?: number
}

/** What `files.uploadMany` did. */
export interface UploadManyResult {
  /** The version the last commit made; `undefined` when no file was given. */
  version: string | undefined
  files: number
  /** Bytes of content written. */
  bytes: number
  /** Bytes of chunks the server lacked, sent. */
  bytesSent: number
  /** Commit requests made: each made one version. */
  commits: number
}

const DEFAULT_COMMIT_BYTES = 960_000
const MAX_PENDING_BYTES = 8 * 1024 * 1024
const encoder = new TextEncoder()

function positive(value: number | undefined, fallback: number, name: string, max = Infinity) {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 1 || value > max)
    throw new RangeError(`${name} must be an integer from 1 to ${max}, got ${value}`)
  return value
}

/**
 * Uploads many files and commits them as few versions as the server's limits allow: each
 * file is cut with the engine's chunker, chunks are checked and only the missing ones sent
 * (as `files.upload` does), and the files are committed by `POST /uploads/commit-many`, up to
 * 10,000 files and 1 MB of JSON at a time, each commit one version. Files are read one after
 * another from a sync or async iterable, so memory stays bounded by one round of chunks and
 * one commit's list, whatever the number of files.
 *
 * Each commit is atomic; when one fails, the commits before it stay.
 */
export async function uploadMany(
  t: Transport,
  files: Iterable<UploadManyFile> | AsyncIterable<UploadManyFile>,
  options: UploadManyOptions = {},
): Promise<UploadManyResult> {
  const { signal } = options
  const batchChunks = positive(options.batchChunks, 256, 'batchChunks')
  const concurrency = positive(options.concurrency, 4, 'concurrency')
  const filesPerCommit = positive(
    options.filesPerCommit,
    MAX_COMMIT_MANY_FILES,
    'filesPerCommit',
    MAX_COMMIT_MANY_FILES,
  )
  const commitBytes = positive(options.commitBytes, DEFAULT_COMMIT_BYTES, 'commitBytes')
  const progress: UploadManyProgress = {
    files: 0,
    filesCommitted: 0,
    bytesRead: 0,
    bytesSent: 0,
    bytesDone: 0,
    commits: 0,
  }
  const result: UploadManyResult = {
    version: undefined,
    files: 0,
    bytes: 0,
    bytesSent: 0,
    commits: 0,
  }
  const report = () => options.onProgress?.({ ...progress })

  // Chunks cut but not yet checked; their hashes are computed meanwhile.
  let pending: { hash: Promise<string>; bytes: Uint8Array }[] = []
  let pendingBytes = 0
  // Files whose chunks are all cut, waiting for the next commit (`{"files":[` + `]}`).
  let ready: CommitManyFile[] = []
  let readyBytes = 12

  const flushChunks = async () => {
    if (pending.length === 0) return
    const round = pending
    pending = []
    pendingBytes = 0
    const chunks: HashedChunk[] = await Promise.all(
      round.map(async ({ hash, bytes }) => ({ hash: await hash, bytes })),
    )
    await sendMissing(t, chunks, {
      signal,
      concurrency,
      onSent: ({ bytes }) => {
        progress.bytesSent += bytes.length
        progress.bytesDone += bytes.length
        report()
      },
      onPresent: (present) => {
        progress.bytesDone += present.reduce((n, { bytes }) => n + bytes.length, 0)
        report()
      },
    })
  }

  const commit = async () => {
    await flushChunks()
    if (ready.length === 0) return
    const batch = ready
    ready = []
    readyBytes = 12
    const answer = await t.json(routes.uploadsCommitMany, {
      query: { fork: options.fork },
      json: { files: batch },
      signal,
    })
    result.version = answer.version
    result.commits++
    progress.commits++
    progress.filesCommitted += answer.files.length
    report()
    options.onCommitted?.(answer)
  }

  for await (const file of files) {
    throwIfAborted(signal)
    const source = typeof file.source === 'function' ? await file.source() : file.source
    const hashes: Promise<string>[] = []
    const sizes: number[] = []
    for await (const chunk of chunkStream(readSource(source))) {
      throwIfAborted(signal)
      // A copy: the chunker may hand out views of buffers the source reuses.
      const bytes = new Uint8Array(chunk)
      const hash = chunkHash(bytes)
      hashes.push(hash)
      sizes.push(bytes.length)
      pending.push({ hash, bytes })
      pendingBytes += bytes.length
      progress.bytesRead += bytes.length
      result.bytes += bytes.length
      // Per chunk, not per file: a large file's reading shows as it goes.
      report()
      if (pending.length >= batchChunks || pendingBytes >= MAX_PENDING_BYTES) await flushChunks()
    }
    const ids = await Promise.all(hashes)
    const entry: CommitManyFile = {
      path: file.path,
      chunks: ids.map((hash, i) => ({ hash, size: sizes[i] as number })),
      hash: await contentHash(ids),
      ...(file.contentType === undefined ? {} : { content_type: file.contentType }),
      ...(file.metadata === undefined ? {} : { metadata: file.metadata }),
    }
    const entryBytes = encoder.encode(JSON.stringify(entry)).length + 1
    // A file too large for a commit of its own still goes alone (the server then says 413).
    if (
      ready.length >= filesPerCommit ||
      (ready.length > 0 && readyBytes + entryBytes > commitBytes)
    )
      await commit()
    ready.push(entry)
    readyBytes += entryBytes
    progress.files++
    result.files++
    report()
  }
  throwIfAborted(signal)
  await commit()
  result.bytesSent = progress.bytesSent
  return result
}
