import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { AbstractLevel } from 'abstract-level'
import { ClassicLevel } from 'classic-level'
import type { ChunkStore } from '../chunks/chunk-store'
import { createLevelChunkStore } from '../chunks/level-chunk-store'
import { createPackChunkStore } from '../chunks/pack-chunk-store'
import { createTieredChunkStore } from '../chunks/tiered-chunk-store'
import { EngineError } from '../errors'
import { insufficientStorage } from './no-space'
import { createLevelMetaStore } from '../meta/level-meta-store'
import type { MetaStore } from '../meta/meta-store'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyLevel = AbstractLevel<any, any, any>

/** Where a database keeps its metadata and chunk bytes. */
export interface Storage {
  meta: MetaStore
  chunks: ChunkStore
}

function isLocked(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } }
  return e.code === 'LEVEL_LOCKED' || e.cause?.code === 'LEVEL_LOCKED'
}

/**
 * Opens the on-disk layout: `<path>/meta` (LevelDB, with chunks up to 16 KiB inline) and
 * `<path>/packs` (pack files for larger chunks). A
 * directory held by another process fails with `LOCKED`; nothing is renamed, wiped or
 * repaired.
 */
export async function openDiskStorage(
  path: string,
  options: { packSizeLimit?: number; chunkCacheBytes?: number } = {},
): Promise<Storage> {
  await mkdir(path, { recursive: true })
  const level = new ClassicLevel(join(path, 'meta'), { keyEncoding: 'view', valueEncoding: 'view' })
  try {
    await level.open()
  } catch (err) {
    if (isLocked(err)) {
      throw new EngineError(
        'LOCKED',
        `database at ${path} is locked: another process has it open`,
        { cause: err },
      )
    }
    const full = insufficientStorage(`opening the database at ${path}`, err)
    if (full !== undefined) throw full
    throw new EngineError(
      'IO_ERROR',
      `cannot open database at ${path}: ${(err as Error).message}`,
      { cause: err },
    )
  }
  const meta = createLevelMetaStore(level)
  try {
    const packs = await createPackChunkStore({
      dir: join(path, 'packs'),
      meta,
      ...(options.packSizeLimit === undefined ? {} : { packSizeLimit: options.packSizeLimit }),
    })
    const chunks = createTieredChunkStore({
      small: createLevelChunkStore({ meta }),
      large: packs,
      ...(options.chunkCacheBytes === undefined ? {} : { cacheBytes: options.chunkCacheBytes }),
    })
    return { meta, chunks }
  } catch (err) {
    await meta.close()
    throw err
  }
}

/** Uses a caller's abstract-level database (memory-level, say) for metadata and chunks alike. */
export async function openLevelStorage(level: AnyLevel): Promise<Storage> {
  if (level.status !== 'open') await level.open()
  const meta = createLevelMetaStore(level)
  return { meta, chunks: createLevelChunkStore({ meta }) }
}
