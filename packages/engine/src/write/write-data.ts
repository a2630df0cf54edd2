import { throwIfAborted } from '../errors'

/** What `writeFile` accepts: bytes, text (written as UTF-8), or a stream of bytes. */
export type WriteData = Uint8Array | string | AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>

const encoder = new TextEncoder()

/** Iterates any {@link WriteData} as byte buffers. */
export async function* dataBuffers(data: WriteData): AsyncGenerator<Uint8Array> {
  if (typeof data === 'string') {
    yield encoder.encode(data)
  } else if (data instanceof Uint8Array) {
    yield data
  } else if (isReadableStream(data)) {
    const reader = data.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        yield value
      }
    } finally {
      reader.releaseLock()
    }
  } else {
    for await (const part of data) {
      if (!(part instanceof Uint8Array))
        throw new TypeError('writeFile streams must yield Uint8Array chunks')
      yield part
    }
  }
}

function isReadableStream(data: object): data is ReadableStream<Uint8Array> {
  return typeof (data as { getReader?: unknown }).getReader === 'function'
}

/** {@link leadingBytes}: all the bytes when they fit, else every buffer in order. */
export type LeadingBytes =
  { whole: Uint8Array; rest?: undefined } | { whole?: undefined; rest: AsyncIterable<Uint8Array> }

/**
 * Reads the start of `data`: when all of it fits in `limit` bytes, those bytes as one buffer
 * (no copy for bytes given as one buffer), else an iterable of every buffer from the first,
 * the ones read here included. `signal` is checked before each buffer is taken, as a reader
 * of {@link dataBuffers} does.
 */
export async function leadingBytes(
  data: WriteData,
  limit: number,
  signal?: AbortSignal,
): Promise<LeadingBytes> {
  if (typeof data === 'string' || data instanceof Uint8Array) {
    throwIfAborted(signal, 'the write')
    const bytes = typeof data === 'string' ? encoder.encode(data) : data
    return bytes.length <= limit ? { whole: bytes } : { rest: once(bytes) }
  }
  const iterator = dataBuffers(data)[Symbol.asyncIterator]()
  const parts: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const next = await iterator.next()
      if (next.done === true) return { whole: joined(parts, size) }
      throwIfAborted(signal, 'the write')
      parts.push(next.value)
      size += next.value.length
      if (size > limit) return { rest: continued(parts, iterator) }
    }
  } catch (err) {
    await iterator.return(undefined)
    throw err
  }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

async function* continued(
  parts: Uint8Array[],
  iterator: AsyncIterator<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  try {
    yield* parts
    for (;;) {
      const next = await iterator.next()
      if (next.done === true) return
      yield next.value
    }
  } finally {
    await iterator.return?.()
  }
}

function joined(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array
  const out = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
