/**
 * Makes a file's byte stream safe to answer with: the first part is read before the headers
 * go out, so a missing or corrupt first chunk answers a JSON error (`CONTENT_CORRUPT`) instead
 * of a 200 cut short; a failure after the headers is reported to `onError` (health turns
 * `degraded`) and ends the response early, which the client sees as a short body.
 */
export async function guardedReadStream(
  stream: ReadableStream<Uint8Array>,
  onError: (err: unknown) => void,
): Promise<ReadableStream<Uint8Array>> {
  const reader = stream.getReader()
  let first: ReadableStreamReadResult<Uint8Array>
  try {
    first = await reader.read()
  } catch (err) {
    reader.releaseLock()
    throw err
  }
  let pending: ReadableStreamReadResult<Uint8Array> | undefined = first
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next = pending
      pending = undefined
      try {
        next ??= await reader.read()
      } catch (err) {
        onError(err)
        controller.error(err)
        return
      }
      if (next.done === true) controller.close()
      else controller.enqueue(next.value)
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined)
    },
  })
}
