import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import { Database } from '../database'
import type { ObjectStore } from './object-store'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
// Two collections a turn apart: buffers LevelDB handed over are freed by finalizers the
// first one only schedules.
const heldBytes = async () => {
  gc()
  await new Promise((resolve) => setImmediate(resolve))
  gc()
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

const KiB = 1024
const DIRS = 30
const FILES = 100
const pathOf = (d: number, f: number) => `/d${d}/file-${f}.txt`

let dir: string
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('ObjectStore', () => {
  it('holds no more memory in decoded objects than its budget, however many it loads', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-object-cache-'))
    const path = join(dir, 'db')
    const writer = await Database.open({ path })
    for (let d = 0; d < DIRS; d++) {
      await Promise.all(
        Array.from({ length: FILES }, (_, f) => writer.writeFile(pathOf(d, f), `file ${d}/${f}`)),
      )
    }
    await writer.close()

    const budget = 256 * KiB
    const db = await Database.open({ path, cacheBytes: budget, chunkCacheBytes: 0 })
    const objects = (db as unknown as { core: { objects: ObjectStore } }).core.objects
    // A first pass over a few directories warms up code and LevelDB, with little cached.
    for (let f = 0; f < FILES; f++) await db.readFile(pathOf(0, f))
    const warm = await heldBytes()
    for (let d = 0; d < DIRS; d++) for (let f = 0; f < FILES; f++) await db.readFile(pathOf(d, f))
    const full = await heldBytes()

    expect(objects.counters.loads).toBeGreaterThan(DIRS * FILES)
    expect(objects.cachedBytes).toBeLessThanOrEqual(budget)
    // 3,000 file objects and their pages went through the cache; counted by their encoded
    // size, it kept about 2,400 of them, several MiB once decoded.
    expect(full - warm).toBeLessThan(2 * budget)
    await db.close()
  }, 60_000)
})
