import type { RawFlag } from './flag-environment'
import { parseChunksUrl, parseMetaUrl } from './flag-values'
import type { FlagValue } from './flag-values'
import type { StorageConfig } from './server-config'

function read(flag: RawFlag | undefined, parse: (raw: string) => FlagValue<string>) {
  if (flag === undefined) return undefined
  const parsed = parse(flag.raw)
  // The value is not echoed: a mistyped URL may still carry a password.
  if ('expected' in parsed)
    return { error: `invalid value for ${flag.source} (expected ${parsed.expected})` }
  return parsed.value
}

/**
 * Where the database lives, from `--meta` and `--chunks` (or their variables): the data
 * directory without them; chunks in S3 need the metadata that indexes them in PostgreSQL.
 * Returns a one-line error naming the flag or variable at fault.
 */
export function storageFromFlags(
  meta: RawFlag | undefined,
  chunks: RawFlag | undefined,
): StorageConfig | { error: string } {
  const metaUrl = read(meta, parseMetaUrl)
  if (typeof metaUrl === 'object') return metaUrl
  const chunksUrl = read(chunks, parseChunksUrl)
  if (typeof chunksUrl === 'object') return chunksUrl
  if (metaUrl === undefined) {
    if (chunksUrl !== undefined)
      return { error: '--chunks needs --meta: the index of the chunks lives in PostgreSQL' }
    return { kind: 'embedded' }
  }
  return { kind: 'shared', meta: metaUrl, chunks: chunksUrl }
}
