import type { Client } from '@svcdb/client'
import { readIndexConfig } from './index-config'
import type { IndexConfigView } from './index-config'

/** Where a directory keeps its index configuration (DESIGN §3.8). */
const CONFIG_DIR = '.svcdb'
const CONFIG_FILE = 'indexes.json'

/**
 * Just below `.svcdb` in name order: a page of one entry after it is `.svcdb` when the
 * directory has one, and reads one entry whatever the directory's size.
 */
const JUST_BEFORE_CONFIG_DIR = '.svcda\uffff'

/** What a directory says about its indexes. */
export type FoundIndexes =
  | { kind: 'none' }
  | { kind: 'indexes'; config: IndexConfigView }
  | { kind: 'invalid'; message: string }

const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`)

/**
 * The index configuration of `dir`, found by listings alone: asking for a file that is not
 * there would answer 404, which a browser reports as an error on every directory opened.
 */
export async function findIndexes(
  client: Client,
  dir: string,
  signal: AbortSignal,
): Promise<FoundIndexes> {
  const probe = await client.files.listPage(dir, {
    after: JUST_BEFORE_CONFIG_DIR,
    pageSize: 1,
    signal,
  })
  const reserved = probe.items[0]
  if (reserved?.name !== CONFIG_DIR || reserved.entry_type !== 'directory') return { kind: 'none' }
  const configDir = join(dir, CONFIG_DIR)
  const listed = await client.files.listPage(configDir, { glob: CONFIG_FILE, pageSize: 1, signal })
  const file = listed.items[0]
  if (file?.entry_type !== 'file') return { kind: 'none' }
  const text = await client.files.readText(join(configDir, CONFIG_FILE), { signal })
  try {
    return { kind: 'indexes', config: readIndexConfig(text) }
  } catch (err) {
    return { kind: 'invalid', message: (err as Error).message }
  }
}
