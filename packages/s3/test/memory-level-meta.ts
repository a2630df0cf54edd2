import { createLevelMetaStore } from '@svcdb/engine'
import type { MetaStore } from '@svcdb/engine'
import { MemoryLevel } from 'memory-level'

/** A fresh, empty memory-level database with binary keys and values. */
export function createMemoryLevel(): MemoryLevel<Uint8Array, Uint8Array> {
  return new MemoryLevel({ keyEncoding: 'view', valueEncoding: 'view' })
}

/** Opens `level` (if it is not open) and returns the engine's MetaStore over it. */
export async function openMetaStore(
  level: MemoryLevel<Uint8Array, Uint8Array>,
): Promise<MetaStore> {
  if (level.status !== 'open') await level.open()
  return createLevelMetaStore(level)
}
