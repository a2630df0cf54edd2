/**
 * A stream that opens `open()` only once `ready` (a shared database's refresh) settles, on
 * its first read: what it streams is picked after the token was checked. A failed refresh
 * or open errors the stream.
 */
export function refreshedStream(
  ready: Promise<void>,
  open: () => ReadableStream<Uint8Array>,
): ReadableStream<Uint8Array> {
  // Never an unhandled rejection when the stream is dropped unread; the first read still sees it.
  ready.catch(() => undefined)
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (reader === undefined) {
          await ready
          reader = open().getReader()
        }
        const { done, value } = await reader.read()
        if (done) controller.close()
        else controller.enqueue(value)
      },
      async cancel(reason) {
        await reader?.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
