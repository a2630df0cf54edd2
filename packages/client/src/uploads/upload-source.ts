/**
 * What an upload can read from: bytes, text, a `Blob` (a browser `File` included), a web
 * `ReadableStream`, or any async iterable of bytes (a Node `Readable`, an async generator).
 */
export type UploadSource =
  Uint8Array | ArrayBuffer | string | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>

/** A body `fetch` can send, and whether it can be sent again (for a retry). */
export interface PreparedBody {
  body: BodyInit
  replayable: boolean
  /** Bytes, when known in advance. */
  size: number | undefined
}

const encoder = new TextEncoder()

/** Turns an upload source into a fetch body, streaming what is not already in memory. */
export function prepareBody(source: UploadSource): PreparedBody {
  if (typeof source === 'string') {
    const bytes = encoder.encode(source)
    return { body: bytes as Uint8Array<ArrayBuffer>, replayable: true, size: bytes.length }
  }
  if (source instanceof Uint8Array)
    return { body: source as Uint8Array<ArrayBuffer>, replayable: true, size: source.length }
  if (source instanceof ArrayBuffer)
    return { body: source, replayable: true, size: source.byteLength }
  if (typeof Blob !== 'undefined' && source instanceof Blob)
    return { body: source, replayable: true, size: source.size }
  if (source instanceof ReadableStream) return { body: source, replayable: false, size: undefined }
  return {
    body: iterableToStream(source as AsyncIterable<Uint8Array>),
    replayable: false,
    size: undefined,
  }
}

/** The bytes a source holds when that is known before reading it (not for streams). */
export function sourceSize(source: UploadSource): number | undefined {
  if (typeof source === 'string') return encoder.encode(source).length
  if (source instanceof Uint8Array) return source.length
  if (source instanceof ArrayBuffer) return source.byteLength
  if (typeof Blob !== 'undefined' && source instanceof Blob) return source.size
  return undefined
}

/** Reads an upload source as a sequence of byte arrays, whatever its kind. */
export async function* readSource(source: UploadSource): AsyncGenerator<Uint8Array> {
  if (typeof source === 'string') {
    yield encoder.encode(source)
  } else if (source instanceof Uint8Array) {
    yield source
  } else if (source instanceof ArrayBuffer) {
    yield new Uint8Array(source)
  } else if (typeof Blob !== 'undefined' && source instanceof Blob) {
    yield* readStream(source.stream())
  } else if (source instanceof ReadableStream) {
    yield* readStream(source)
  } else {
    for await (const part of source as AsyncIterable<Uint8Array>) yield part
  }
}

async function* readStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}

function iterableToStream(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next()
      if (next.done === true) controller.close()
      else controller.enqueue(next.value)
    },
    async cancel() {
      await iterator.return?.()
    },
  })
}
