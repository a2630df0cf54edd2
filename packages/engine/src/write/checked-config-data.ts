import { EngineError } from '../errors'
import { dataBuffers } from './write-data'
import type { WriteData } from './write-data'
import {
  INDEX_CONFIG_PATH,
  MAX_INDEX_CONFIG_BYTES,
  parseIndexConfig,
} from '../indexes/index-config'

/** True for the path of a directory's index configuration. */
export function isIndexConfigPath(path: string): boolean {
  return path === `/${INDEX_CONFIG_PATH}` || path.endsWith(`/${INDEX_CONFIG_PATH}`)
}

/**
 * Reads the data written to an index configuration (at most 64 KiB) and checks it, so a bad
 * configuration is refused with a clear `INVALID_INPUT` instead of being stored.
 */
export async function checkedConfigData(data: WriteData): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  let size = 0
  for await (const part of dataBuffers(data)) {
    size += part.length
    if (size > MAX_INDEX_CONFIG_BYTES)
      throw new EngineError(
        'INVALID_INPUT',
        `invalid index configuration: larger than ${MAX_INDEX_CONFIG_BYTES} bytes`,
      )
    parts.push(part)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    bytes.set(part, at)
    at += part.length
  }
  parseIndexConfig(new TextDecoder().decode(bytes))
  return bytes
}
