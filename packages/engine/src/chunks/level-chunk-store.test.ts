import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { MemoryLevel } from 'memory-level'
import { afterEach, describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import { createLevelMetaStore } from '../meta/level-meta-store'
import type { MetaStore } from '../meta/meta-store'
import { runChunkStoreConformance } from '../testing/chunk-store-conformance'
import type { ChunkStoreFixture } from '../testing/chunk-store-conformance'
import { createLevelChunkStore } from './level-chunk-store'
import type { LevelChunkStoreOptions } from './level-chunk-store'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyLevel = MemoryLevel<any, any> | ClassicLevel<any, any>

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

/** A fixture over an abstract-level database; `reopen` closes and reopens that same database. */
async function fixture(
  level: AnyLevel,
  reopenLevel: () => AnyLevel,
  options: Omit<LevelChunkStoreOptions, 'meta'> = {},
): Promise<ChunkStoreFixture> {
  if (level.status !== 'open') await level.open()
  const meta: MetaStore = createLevelMetaStore(level)
  const store = createLevelChunkStore({ meta, ...options })
  let closed = false
  const close = async (): Promise<void> => {
    if (closed) return
    closed = true
    await store.close()
    await meta.close()
  }
  return {
    store,
    meta,
    async corrupt(hash) {
      const record = await meta.get('chunk', hash)
      if (record === undefined) throw new Error('corrupt(): chunk is not committed')
      const damaged = record.slice()
      const at = damaged.length - 1 - (damaged.length >> 2)
      damaged[at] = (damaged[at] as number) ^ 0x10
      await meta.batch([{ type: 'put', space: 'chunk', key: hash, value: damaged }], { sync: true })
    },
    async footprint() {
      let total = 0
      for await (const [, value] of meta.iterate('chunk')) total += value.length
      return total
    },
    async reopen() {
      await close()
      return fixture(reopenLevel(), reopenLevel, options)
    },
    close,
  }
}

runChunkStoreConformance('level (memory-level)', async () => {
  const level = new MemoryLevel({ keyEncoding: 'view', valueEncoding: 'view' })
  return fixture(level, () => level)
})

// Records carry last_seen after their bytes (and the store a sweep): the contract is unchanged.
runChunkStoreConformance('level (memory-level, last_seen)', async () => {
  const level = new MemoryLevel({ keyEncoding: 'view', valueEncoding: 'view' })
  return fixture(level, () => level, { lastSeen: {} })
})

runChunkStoreConformance('level (classic-level)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-level-chunks-'))
  dirs.push(dir)
  const make = () =>
    new ClassicLevel(join(dir, 'meta'), { keyEncoding: 'view', valueEncoding: 'view' })
  return fixture(make(), make)
})

describe('level-chunk-store', () => {
  it('returns no ops from flush: records travel in the stage ops', async () => {
    const level = new MemoryLevel({ keyEncoding: 'view', valueEncoding: 'view' })
    const f = await fixture(level, () => level)
    try {
      const hash = new Uint8Array(32).fill(7)
      const staged = await f.store.stage(hash, new Uint8Array([1, 2, 3]))
      expect(staged.ops).toHaveLength(1)
      expect(staged.ops[0]).toMatchObject({ type: 'put', space: 'chunk' })
      expect(await f.store.flush()).toEqual([])
      const err = await f.meta.get('chunk', hash)
      expect(err).toBeUndefined()
      expect(
        isEngineError(await f.store.read(new Uint8Array(32)).catch((e: unknown) => e), 'NOT_FOUND'),
      ).toBe(true)
    } finally {
      await f.close()
    }
  })
})
