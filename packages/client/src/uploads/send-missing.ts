import { routes } from '@svcdb/contract'
import type { Transport } from '../http/transport'

/** A chunk cut from an upload, with its id. */
export interface HashedChunk {
  hash: string
  bytes: Uint8Array
}

/** Options of {@link sendMissing}. */
export interface SendMissingOptions {
  signal?: AbortSignal | undefined
  /** Chunk uploads in flight at once. */
  concurrency: number
  /** Called once each chunk sent is stored. */
  onSent?: (chunk: HashedChunk) => void
  /** Called once, when the server has answered, with the chunks that need no sending. */
  onPresent?: (chunks: HashedChunk[]) => void
}

/**
 * Asks the server which of `chunks` it lacks (`POST /uploads/check`) and sends those, each
 * once however often it appears (`PUT /uploads/chunks/{hash}`), `concurrency` at a time.
 */
export async function sendMissing(
  t: Transport,
  chunks: readonly HashedChunk[],
  options: SendMissingOptions,
): Promise<void> {
  if (chunks.length === 0) return
  const { signal } = options
  const { missing } = await t.json(routes.uploadsCheck, {
    json: { hashes: chunks.map((c) => c.hash) },
    signal,
  })
  const wanted = new Set(missing)
  const sends: HashedChunk[] = []
  const present: HashedChunk[] = []
  // A chunk the server lacks is sent once, however often it appears; its repeats need nothing.
  for (const chunk of chunks) (wanted.delete(chunk.hash) ? sends : present).push(chunk)
  if (present.length > 0) options.onPresent?.(present)
  await runLimited(sends, options.concurrency, async (chunk) => {
    await t.json(routes.uploadsChunk, {
      params: { hash: chunk.hash },
      body: chunk.bytes as Uint8Array<ArrayBuffer>,
      replayable: true,
      headers: { 'content-type': 'application/octet-stream' },
      signal,
    })
    options.onSent?.(chunk)
  })
}

/** Runs `work` over `items`, at most `limit` at once; the first failure fails the whole. */
async function runLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  let failed = false
  const lane = async () => {
    while (next < items.length && !failed) {
      try {
        await work(items[next++] as T)
      } catch (err) {
        failed = true
        throw err
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}
