/**
 * Adapts a batch source (`take` resolving with items, or an empty array once finished) to an
 * async iterator of single items. Leaving a `for await` loop early calls `close`.
 */
export function iterateBatches<T>(
  take: () => Promise<T[]>,
  close: () => void,
): AsyncIterableIterator<T> {
  let batch: T[] = []
  let index = 0
  let done = false
  const finished = (): IteratorResult<T> => ({ done: true, value: undefined })
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      if (index < batch.length) return { done: false, value: batch[index++] as T }
      if (done) return finished()
      batch = await take()
      index = 0
      if (batch.length === 0) {
        done = true
        return finished()
      }
      return { done: false, value: batch[index++] as T }
    },
    return() {
      done = true
      batch = []
      close()
      return Promise.resolve(finished())
    },
    [Symbol.asyncIterator]() {
      return iterator
    },
  }
  return iterator
}
