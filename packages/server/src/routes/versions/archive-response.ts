import type { Context } from 'hono'
import type { AppEnv } from '../../routing/app-env'

/**
 * Archive bytes produced before the headers go out. A failure within them (a missing or
 * corrupt object or chunk near the start, a cancelled walk) answers a JSON error instead of a
 * 200 cut short; an archive that fits is sent whole, with its length.
 */
export const ARCHIVE_PREFETCH_BYTES = 256 * 1024

/**
 * The response header naming, in full, the version an export or patch leads to, so a peer
 * pulling it can decide what to do with it before reading the body.
 */
export const ARCHIVE_VERSION_HEADER = 'svcdb-version'

/**
 * Answers an export or patch stream. After the headers an error can no longer change the
 * status: it is reported (health watches such errors) and the response is aborted, so the
 * archive lacks its end frame, which every reader, import included, refuses. The archive
 * generator is always finished or returned, so its version lease is released and no promise
 * is left to reject unhandled.
 */
export async function archiveResponse(
  c: Context<AppEnv>,
  archive: AsyncGenerator<Uint8Array>,
  filename: string,
  version: string,
): Promise<Response> {
  const headers = {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': `attachment; filename="${filename}"`,
    [ARCHIVE_VERSION_HEADER]: version,
  }
  const head: Uint8Array[] = []
  let size = 0
  // A throw here ends the generator (its `finally` releases the lease) and reaches the
  // app's error handler, which answers JSON.
  while (size < ARCHIVE_PREFETCH_BYTES) {
    const next = await archive.next()
    if (next.done === true) return c.body(Buffer.concat(head), 200, headers)
    head.push(next.value)
    size += next.value.length
  }
  const report = c.get('reportError') ?? (() => undefined)
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of head) controller.enqueue(part)
      head.length = 0
    },
    async pull(controller) {
      let next: IteratorResult<Uint8Array>
      try {
        next = await archive.next()
      } catch (err) {
        report(err)
        // Errors the body: the server aborts the connection before the chunked terminator.
        controller.error(err)
        return
      }
      if (next.done === true) controller.close()
      else controller.enqueue(next.value)
    },
    async cancel() {
      // The client went away: stop the walk and release the versions it pinned.
      await archive.return(undefined).catch(() => undefined)
    },
  })
  return c.body(body, 200, headers)
}
