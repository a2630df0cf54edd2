import { routes } from '@svcdb/contract'
import { chunkStream } from '@svcdb/engine/chunking'
import { abortError } from '../http/abort'
import type { ResponseOf, Transport } from '../http/transport'
import { chunkHash, contentHash } from './chunk-hash'
import { sendMissing } from './send-missing'
import { readSource, sourceSize } from './upload-source'
import type { UploadSource } from './upload-source'

/**
 * Progress of a dedup-aware upload, reported after every chunk read, every chunk the server
 * stored and every answer about which chunks it already has; every report moves at least one
 * count forward.
 */
export interface UploadProgress {
  /** Bytes read from the source so far. */
  bytesRead: number
  /** Bytes of chunks the server lacked, sent and stored so far (one chunk at a time). */
  bytesSent: number
  /**
   * Bytes of the source the server now holds: sent, or found there already. The measure for
   * a progress bar: it ends at the source's size, re-uploads included.
   */
  bytesDone: number
  /** The source's size when known before reading it (bytes, text, a Blob); not for streams. */
  totalBytes: number | undefined
  chunks: number
  chunksSent: number
}

/** Options of `files.upload`. */
export interface UploadOptions {
  contentType?: string
  fork?: string
  signal?: AbortSignal
  onProgress?: (progress: UploadProgress) => void
  /** Chunks checked and sent per round (default 64, about 4 MiB). */
  batchChunks?: number
  /** Chunk uploads in flight at once (default 4). */
  concurrency?: number
}

/**
 * Uploads a file sending only the chunks the server does not have: the source is cut with
 * the engine's own chunker, each batch of chunk ids is checked (`POST /uploads/check`), the
 * missing chunks are sent (`PUT /uploads/chunks/{hash}`), and the list is committed with its
 * content hash (`POST /uploads/commit`). Memory stays bounded by one batch.
 */
export async function dedupUpload(
  t: Transport,
  path: string,
  source: UploadSource,
  options: UploadOptions = {},
): Promise<ResponseOf<typeof routes.uploadsCommit>> {
  const { signal } = options
  const batchSize = options.batchChunks ?? 64
  const refs: { hash: string; size: number }[] = []
  const progress: UploadProgress = {
    bytesRead: 0,
    bytesSent: 0,
    bytesDone: 0,
    totalBytes: sourceSize(source),
    chunks: 0,
    chunksSent: 0,
  }
  const report = () => options.onProgress?.({ ...progress })
  let batch: Uint8Array[] = []

  const flush = async () => {
    if (batch.length === 0) return
    const chunks = batch
    batch = []
    const hashes = await Promise.all(chunks.map(chunkHash))
    await sendMissing(
      t,
      chunks.map((bytes, i) => ({ hash: hashes[i] as string, bytes })),
      {
        signal,
        concurrency: options.concurrency ?? 4,
        onSent: ({ bytes }) => {
          progress.bytesSent += bytes.length
          progress.bytesDone += bytes.length
          progress.chunksSent++
          report()
        },
        onPresent: (present) => {
          progress.bytesDone += present.reduce((n, { bytes }) => n + bytes.length, 0)
          report()
        },
      },
    )
    chunks.forEach((chunk, i) => refs.push({ hash: hashes[i] as string, size: chunk.length }))
  }

  for await (const chunk of chunkStream(readSource(source))) {
    if (signal?.aborted === true) throw abortError(signal)
    // A copy: the chunker may hand out views of buffers the source reuses.
    batch.push(new Uint8Array(chunk))
    progress.bytesRead += chunk.length
    progress.chunks++
    report()
    if (batch.length >= batchSize) await flush()
  }
  await flush()
  const json = {
    path,
    chunks: refs,
    hash: await contentHash(refs.map((r) => r.hash)),
    ...(options.contentType === undefined ? {} : { content_type: options.contentType }),
  }
  return t.json(routes.uploadsCommit, { query: { fork: options.fork }, json, signal })
}
