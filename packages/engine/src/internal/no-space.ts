import { EngineError } from '../errors'

/** The OS error codes meaning "the device or the quota is full". */
export type NoSpaceCode = 'ENOSPC' | 'EDQUOT'

// LevelDB reports errno only as `strerror` text inside its IO error's message.
const NO_SPACE_TEXT: readonly [string, NoSpaceCode][] = [
  ['No space left on device', 'ENOSPC'],
  ['Disk quota exceeded', 'EDQUOT'],
]

/**
 * `ENOSPC` or `EDQUOT` when `err` or one of its causes says the device or the quota is full:
 * Node's file errors by `code`, LevelDB's IO errors by message.
 */
export function noSpaceCode(err: unknown): NoSpaceCode | undefined {
  let current = err
  // A few levels of `cause` at most: abstract-level and our wrappers nest one or two.
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const { code, message, cause } = current as {
      code?: unknown
      message?: unknown
      cause?: unknown
    }
    if (code === 'ENOSPC' || code === 'EDQUOT') return code
    if (typeof message === 'string') {
      for (const [text, textCode] of NO_SPACE_TEXT) if (message.includes(text)) return textCode
    }
    current = cause
  }
  return undefined
}

/**
 * An `INSUFFICIENT_STORAGE` error when `err` says the device or quota is full, else
 * `undefined`. The message names the space but no file-system path (it reaches HTTP
 * callers); the original error, path included, stays in `cause` for the logs.
 *
 * @example
 * throw insufficientStorage('pack write', err) ?? new EngineError('IO_ERROR', …)
 */
export function insufficientStorage(action: string, err: unknown): EngineError | undefined {
  const code = noSpaceCode(err)
  if (code === undefined) return undefined
  const what =
    code === 'ENOSPC'
      ? 'no space left on the device holding the database directory'
      : 'the disk quota of the database directory is exhausted'
  return new EngineError(
    'INSUFFICIENT_STORAGE',
    `${what} (${code}): ${action} failed; reads still work, and writes work again once space is freed`,
    { cause: err },
  )
}
