import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { MemoryLevel } from 'memory-level'
import { runMetaStoreConformance } from '../testing/meta-store-conformance'
import type { MetaStoreFixture } from '../testing/meta-store-conformance'
import { createLevelMetaStore } from './level-meta-store'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyLevel = MemoryLevel<any, any> | ClassicLevel<any, any>

/**
 * A fixture over an abstract-level database. `reopen` opens the database `next()` gives (the
 * same memory-level instance, or a new classic-level one on the same directory).
 */
async function fixture(
  level: AnyLevel,
  next: () => AnyLevel,
  cleanUp: () => Promise<void>,
): Promise<MetaStoreFixture> {
  if (level.status !== 'open') await level.open()
  const store = createLevelMetaStore(level)
  const closeStore = async () => {
    if (level.status === 'open') await store.close()
  }
  return {
    store,
    async reopen() {
      await closeStore()
      return fixture(next(), next, cleanUp)
    },
    async close() {
      await closeStore()
      await cleanUp()
    },
  }
}

runMetaStoreConformance(
  'level (memory-level)',
  async () => {
    const level = new MemoryLevel({ keyEncoding: 'view', valueEncoding: 'view' })
    return fixture(
      level,
      () => level,
      async () => undefined,
    )
  },
  { snapshots: true },
)

runMetaStoreConformance(
  'level (classic-level)',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svcdb-meta-conformance-'))
    const make = () => new ClassicLevel(dir, { keyEncoding: 'view', valueEncoding: 'view' })
    return fixture(make(), make, () => rm(dir, { recursive: true, force: true }))
  },
  { snapshots: true },
)
