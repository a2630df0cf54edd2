/** A satisfiable single range (inclusive), `'unsatisfiable'`, or `undefined` for the whole. */
export type RangeRequest = { start: number; end: number } | 'unsatisfiable' | undefined

/**
 * Parses a `Range` header for a body of `size` bytes (RFC 9110 §14): one `bytes=a-b`,
 * `bytes=a-` or `bytes=-n` range. Several ranges or another unit get the whole body (a
 * server may ignore Range); a range starting past the end is unsatisfiable.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return undefined
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (match === null) return undefined
  const [, first, last] = match as unknown as [string, string, string]
  if (first === '' && last === '') return undefined
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0) return 'unsatisfiable'
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return 'unsatisfiable'
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (end < start) return undefined
  return { start, end }
}
