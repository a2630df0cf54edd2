/** Reads a whole async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) out.push(item)
  return out
}

/** The code of the error `pending` rejects with, or `resolved`. */
export async function outcome(pending: Promise<unknown>): Promise<string> {
  try {
    await pending
    return 'resolved'
  } catch (err) {
    const code = (err as { code?: unknown }).code
    return typeof code === 'string' ? code : String(err)
  }
}
