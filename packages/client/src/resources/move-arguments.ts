import type { CallOptions } from '../http/route-types'

type ForkOptions = CallOptions & { fork?: string }

/**
 * `files.move(body, options)` or the older `files.move(from, to, options)`, as the body and
 * the options. Arguments that fit neither throw `TypeError` (a programming mistake).
 */
export function moveArguments(
  first: { from: string; to: string } | string,
  second: string | ForkOptions | undefined,
  third: ForkOptions | undefined,
): [{ from: string; to: string }, ForkOptions] {
  if (typeof first === 'string') {
    if (typeof second !== 'string')
      throw new TypeError('files.move(from, to) needs `to` as a string; or pass { from, to }')
    return [{ from: first, to: second }, third ?? {}]
  }
  if (typeof first !== 'object' || first === null || typeof second === 'string')
    throw new TypeError('files.move takes { from, to } and options, or (from, to, options)')
  return [{ from: first.from, to: first.to }, second ?? {}]
}

/**
 * `files.copy(body, options)` or the older `files.copy(paths, destination, options)`, as the
 * body and the options. Arguments that fit neither throw `TypeError`.
 */
export function copyArguments(
  first: { paths: string[]; destination: string } | string[],
  second: string | ForkOptions | undefined,
  third: ForkOptions | undefined,
): [{ paths: string[]; destination: string }, ForkOptions] {
  if (Array.isArray(first)) {
    if (typeof second !== 'string')
      throw new TypeError(
        'files.copy(paths, destination) needs `destination` as a string; or pass { paths, destination }',
      )
    return [{ paths: first, destination: second }, third ?? {}]
  }
  if (typeof first !== 'object' || first === null || typeof second === 'string')
    throw new TypeError(
      'files.copy takes { paths, destination } and options, or (paths, destination, options)',
    )
  return [{ paths: first.paths, destination: first.destination }, second ?? {}]
}
