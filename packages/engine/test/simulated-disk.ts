import { MemoryLevel } from 'memory-level'
import { createLevelChunkStore } from '../src/chunks/level-chunk-store'
import { createPackChunkStore } from '../src/chunks/pack-chunk-store'
import { createTieredChunkStore } from '../src/chunks/tiered-chunk-store'
import { openDatabaseOnStorage } from '../src/database'
import type { Database } from '../src/database'
import { createLevelMetaStore } from '../src/meta/level-meta-store'
import type { SimulatedFileSystem } from '../src/testing/simulated-file-system'
import { pseudoRandomBytes } from '../src/testing/pseudo-random-bytes'

// Test support for the crash and fault tiers: a database whose metadata is in memory-level
// and whose pack files are on a simulated file system.

/** Metadata of a simulated database: a memory-level that outlives the database on it. */
export type SimulatedLevel = MemoryLevel<Uint8Array, Uint8Array>

/** A fresh, empty metadata level. */
export const newLevel = (): SimulatedLevel =>
  new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' })

/** Packs this small rotate often, so a few hundred KiB of writes span several packs. */
export const SMALL_PACK_BYTES = 160 * 1024

/**
 * Opens a database on `level` and `files` (packs in `/sim/db/packs`). The version log keeps
 * nothing, so GC reclaims whatever no ref holds.
 */
export async function openSimulated(
  files: SimulatedFileSystem,
  level: SimulatedLevel,
): Promise<Database> {
  if (level.status !== 'open') await level.open()
  const meta = createLevelMetaStore(level)
  const packs = await createPackChunkStore({
    dir: '/sim/db/packs',
    meta,
    files,
    packSizeLimit: SMALL_PACK_BYTES,
  })
  const chunks = createTieredChunkStore({
    small: createLevelChunkStore({ meta }),
    large: packs,
    cacheBytes: 0,
  })
  return openDatabaseOnStorage({ meta, chunks }, { versionLogLimit: 0 })
}

/**
 * A copy of `level` as it is at the call: the snapshot is taken synchronously (at a simulated
 * crash), the copy made afterwards.
 */
export function freezeLevel(level: SimulatedLevel): () => Promise<SimulatedLevel> {
  const snapshot = level.snapshot()
  return async () => {
    const copy = newLevel()
    await copy.open()
    const entries = await level.iterator({ snapshot }).all()
    await snapshot.close()
    await copy.batch(entries.map(([key, value]) => ({ type: 'put' as const, key, value })))
    return copy
  }
}

/** Bytes of a file that spans several pack chunks (128–320 KiB), by seed. */
export const fileBytes = (seed: number): Uint8Array =>
  pseudoRandomBytes(128 * 1024 + ((seed * 48_271) % (192 * 1024)), seed)
