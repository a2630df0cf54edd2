import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Database } from '../database'
import { createInPlaceBudget } from './in-place-budget'

describe('reads in place', () => {
  it('stop being allowed while the event loop has not turned, and start again once it has', async () => {
    const inPlace = createInPlaceBudget()
    let allowed = 0
    // Busy reads with no turn of the event loop: the budget runs out (after 16 ms).
    while (inPlace() && allowed < 1e7) allowed++
    expect(allowed).toBeLessThan(1e7)
    expect(inPlace()).toBe(false)
    await new Promise((resolve) => setImmediate(resolve))
    expect(inPlace()).toBe(true)
  })

  it('let a timer run during a long walk of reads that all hit in place', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svcdb-in-place-'))
    try {
      const path = join(dir, 'db')
      const writer = await Database.open({ path })
      await writer.writeFiles(
        Array.from({ length: 3000 }, (_, i) => ({ path: `/d/f${i}.txt`, data: `file ${i}` })),
      )
      await writer.close()
      // No caches: every read of a file goes to the metadata store.
      const db = await Database.open({ path, cacheBytes: 0, chunkCacheBytes: 0 })
      let fired = false
      setTimeout(() => (fired = true), 0)
      let firedDuringWalk = false
      for (let i = 0; i < 3000; i++) {
        await db.readFile(`/d/f${i}.txt`)
        if (fired) firedDuringWalk = true
      }
      expect(firedDuringWalk).toBe(true)
      await db.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
