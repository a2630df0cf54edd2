import { mkdir, open, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import type { AbstractLevel } from 'abstract-level'
import { ClassicLevel } from 'classic-level'
import type { CompressionOptions } from '../chunks/chunk-codec'
import type { ChunkStore } from '../chunks/chunk-store'
import { createLevelChunkStore } from '../chunks/level-chunk-store'
import { createPackChunkStore } from '../chunks/pack-chunk-store'
import { createTieredChunkStore } from '../chunks/tiered-chunk-store'
import { EngineError } from '../errors'
import { insufficientStorage } from '../internal/no-space'
import { checkLevelFiles, damagedMetadata } from '../meta/level-files-check'
import { isLevelLocked } from '../meta/level-lock-probe'
import { createLevelMetaStore } from '../meta/level-meta-store'
import type { MetaStore } from '../meta/meta-store'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyLevel = AbstractLevel<any, any, any>

/** Where a database keeps its metadata and chunk bytes. */
export interface Storage {
  meta: MetaStore
  chunks: ChunkStore
}

function hasLevelCode(err: unknown, code: string): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } }
  return e.code === code || e.cause?.code === code
}

function lockedError(path: string, cause: unknown): EngineError {
  return new EngineError('LOCKED', `database at ${path} is locked: another process has it open`, {
    cause,
  })
}

/**
 * Opens the on-disk layout: `<path>/meta` (LevelDB, with chunks up to 16 KiB inline) and
 * `<path>/packs` (pack files for larger chunks). A
 * directory held by another process fails with `LOCKED`; damaged metadata (a missing
 * `CURRENT`, a broken table footer or index, damage LevelDB finds on open) fails with
 * `CONTENT_CORRUPT` naming the damage and `svcdb repair`. Nothing is renamed, wiped or
 * repaired: the checks run before LevelDB touches the directory.
 */
export async function openDiskStorage(
  path: string,
  options: {
    packSizeLimit?: number
    chunkCacheBytes?: number
    compression?: CompressionOptions
  } = {},
): Promise<Storage> {
  const created = await mkdir(path, { recursive: true })
  const metaDir = join(path, 'meta')
  const metaExisted = await stat(metaDir).then(
    () => true,
    () => false,
  )
  try {
    await checkLevelFiles(metaDir, path)
  } catch (err) {
    // A running server may be mid-way through writing a table: its lock is the answer then.
    if (await isLevelLocked(metaDir)) throw lockedError(path, err)
    throw err
  }
  const level = new ClassicLevel(metaDir, { keyEncoding: 'view', valueEncoding: 'view' })
  try {
    await level.open()
  } catch (err) {
    if (hasLevelCode(err, 'LEVEL_LOCKED')) throw lockedError(path, err)
    if (hasLevelCode(err, 'LEVEL_CORRUPTION'))
      throw damagedMetadata(path, (err as { cause?: Error }).cause?.message ?? String(err), err)
    const full = insufficientStorage(`opening the database at ${path}`, err)
    if (full !== undefined) throw full
    throw new EngineError(
      'IO_ERROR',
      `cannot open database at ${path}: ${(err as Error).message}`,
      { cause: err },
    )
  }
  // A new database's directories must survive a power loss like the data written in them.
  if (!metaExisted) await syncNewDirectories(created, path)
  const meta = createLevelMetaStore(level)
  try {
    const packs = await createPackChunkStore({
      dir: join(path, 'packs'),
      meta,
      ...(options.packSizeLimit === undefined ? {} : { packSizeLimit: options.packSizeLimit }),
      ...(options.compression === undefined ? {} : { compression: options.compression }),
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

/**
 * Uses stores the caller opened: `meta`, and `chunks` or, without it, chunks kept in `meta`'s
 * `chunk` space (as {@link openLevelStorage} does).
 */
export function givenStorage(meta: MetaStore, chunks?: ChunkStore): Storage {
  return { meta, chunks: chunks ?? createLevelChunkStore({ meta }) }
}

/**
 * fsyncs the directories whose entries a new database created: the parent of the first
 * directory `mkdir` made, each directory from there down to `path`, and `path` itself (it
 * gained `meta/`).
 */
async function syncNewDirectories(created: string | undefined, path: string): Promise<void> {
  const dirs = [path]
  if (created !== undefined) {
    const steps = relative(created, path)
      .split(sep)
      .filter((s) => s !== '')
    let at = created
    dirs.push(dirname(created), created)
    for (const step of steps) {
      at = join(at, step)
      dirs.push(at)
    }
  }
  for (const dir of new Set(dirs)) {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  }
}
