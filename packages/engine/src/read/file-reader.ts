import { EngineError } from '../errors'
import type { FileObject } from '../objects/tree-objects'
import { checked, corruptIfMissing, readFileContent } from './file-content'
import type { ReadBufferPool } from './read-buffer-pool'
import type { ReadStreamOptions, ViewContext } from './view-context'

/** A file's bytes, or the inclusive range of them, as one buffer (one chunk: as read, no copy). */
export async function readContent(
  context: ViewContext,
  file: FileObject,
  path: string,
  options: ReadStreamOptions,
): Promise<Uint8Array> {
  const started = performance.now()
  const { start, end } = byteRange(file, path, options)
  const length = file.size === 0 ? 0 : end - start + 1
  const only = file.chunks?.length === 1 ? file.chunks[0] : undefined
  let out: Uint8Array
  if (only !== undefined) {
    // One chunk (every small file): its bytes as read, no copy into a second buffer.
    let bytes: Uint8Array
    try {
      bytes = await context.chunks.read(only.hash, { size: only.size })
    } catch (err) {
      throw corruptIfMissing(err)
    }
    out = checked(bytes, [start, end + 1, only.size])
  } else {
    out = new Uint8Array(length)
    let at = 0
    for await (const part of readFileContent(context.objects, context.chunks, file, {
      start,
      end,
    })) {
      out.set(part, at)
      at += part.length
    }
    if (at !== length) {
      throw new EngineError('CONTENT_CORRUPT', `${path} is shorter than recorded`, { path })
    }
  }
  context.onRead?.(length, performance.now() - started)
  return out
}

/**
 * A file's bytes, or the inclusive range of them, as parts read as the consumer asks for the
 * next one; the file object is found, and the range checked, on the first. The read is
 * reported to `onRead` when the last part has been taken. With `pool`, parts are lent (see
 * `FileContentOptions.pool`).
 */
export async function* contentParts(
  context: ViewContext,
  file: () => Promise<FileObject>,
  path: string,
  options: ReadStreamOptions,
  pool?: ReadBufferPool,
): AsyncGenerator<Uint8Array> {
  const started = performance.now()
  const found = await file()
  let sent = 0
  for await (const part of readFileContent(
    context.objects,
    context.chunks,
    found,
    byteRange(found, path, options),
    pool === undefined ? {} : { pool },
  )) {
    sent += part.length
    yield part
  }
  context.onRead?.(sent, performance.now() - started)
}

/** {@link contentParts} as a web stream, pulled by its reader. */
export function contentStream(
  context: ViewContext,
  file: () => Promise<FileObject>,
  path: string,
  options: ReadStreamOptions,
): ReadableStream<Uint8Array> {
  const parts = contentParts(context, file, path, options)
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      const next = await parts.next()
      if (next.done === true) controller.close()
      else controller.enqueue(next.value)
    },
    cancel: async () => {
      await parts.return(undefined)
    },
  })
}

/** The inclusive byte range `options` asks of a file, checked (`INVALID_PATH` when it is not a range). */
export function byteRange(
  file: FileObject,
  path: string,
  options: ReadStreamOptions,
): { start: number; end: number } {
  const start = options.start ?? 0
  const end = Math.min(options.end ?? file.size - 1, file.size - 1)
  if (
    !Number.isSafeInteger(start) ||
    start < 0 ||
    (file.size > 0 && start > end && options.end !== undefined)
  ) {
    throw new EngineError(
      'INVALID_PATH',
      `invalid byte range ${start}-${options.end ?? ''} of ${path}`,
      {
        path,
      },
    )
  }
  return { start, end }
}
