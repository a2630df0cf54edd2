import { createRequire } from 'node:module'
import { createLevelMetaStore } from '@svcdb/engine'
import type { MetaStore } from '@svcdb/engine'

/** The part of a memory-level database these tests use. */
export interface MemoryLevelDatabase {
  readonly status: string
  open(): Promise<void>
}

// memory-level is a dependency of @svcdb/engine, not of this package (whose package.json the
// scale-out slice keeps fixed), so it is loaded from the engine's folder.
const fromEngine = createRequire(
  createRequire(import.meta.url).resolve('@svcdb/engine/package.json'),
)
const { MemoryLevel } = fromEngine('memory-level') as {
  MemoryLevel: new (options: { keyEncoding: 'view'; valueEncoding: 'view' }) => MemoryLevelDatabase
}

/** A fresh, empty memory-level database with binary keys and values. */
export function createMemoryLevel(): MemoryLevelDatabase {
  return new MemoryLevel({ keyEncoding: 'view', valueEncoding: 'view' })
}

/** Opens `level` (if it is not open) and returns the engine's MetaStore over it. */
export async function openMetaStore(level: MemoryLevelDatabase): Promise<MetaStore> {
  if (level.status !== 'open') await level.open()
  return createLevelMetaStore(level as Parameters<typeof createLevelMetaStore>[0])
}
