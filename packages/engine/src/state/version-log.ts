import { parseHash } from '../internal/hex'
import { parseSequenceKey, sequenceKey } from '../meta/keys'
import type { MetaStore } from '../meta/meta-store'
import { parseJson } from './stored-json'

/** Ref moves kept in the version log by default. */
export const VERSION_LOG_LIMIT = 10_000

/** One ref move of the version log, as stored. */
export interface LogRecord {
  seq: number
  ref: string
  /** Hex roots; `null` when the ref did not exist before, or was removed. */
  from: string | null
  to: string | null
  at: number
}

/** The version log, oldest first (or newest first with `reverse`). */
export async function* readVersionLog(
  meta: MetaStore,
  options: { reverse?: boolean; after?: number } = {},
): AsyncGenerator<LogRecord> {
  const range = options.after === undefined ? {} : { gt: sequenceKey(options.after) }
  for await (const [key, value] of meta.iterate('log', {
    ...range,
    reverse: options.reverse ?? false,
  })) {
    const seq = parseSequenceKey(key)
    const record = parseJson<Omit<LogRecord, 'seq'>>(value)
    if (seq !== undefined && record !== undefined) yield { seq, ...record }
  }
}

/** The root bytes of a log record's side, if any. */
export function logRoot(hex: string | null): Uint8Array | undefined {
  return hex === null ? undefined : parseHash(hex)
}
