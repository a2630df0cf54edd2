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
