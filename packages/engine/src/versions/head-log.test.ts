import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rejectsWith, text } from '../../test/engine-test-kit'
import { Database } from '../database'
import type { DatabaseOptions } from '../database-open'
import { isEngineError } from '../errors'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

const DAY = 24 * 60 * 60 * 1000

describe('HEAD log (LevelDB on disk)', () => {
  let dir: string
  let db: Database
  const clock = { time: 1_700_000_000_000, now: () => clock.time }
  const open = (options: Omit<DatabaseOptions, 'path' | 'clock'> = {}) =>
    Database.open({ path: dir, clock, ...options })

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-head-log-'))
    clock.time = 1_700_000_000_000
    db = await open()
  })
  afterEach(async () => {
    await db.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('records promote, fork promote, import with promote and restore, not ordinary writes, and keeps them across a restart', async () => {
    await db.writeFile('/a.txt', 'one')
    const v1 = db.head()
    await db.snapshots.create('s1')
    await db.forks.create('f')
    await db.fork('f').writeFile('/f.txt', 'fork')
    await db.writeFile('/b.txt', 'two')
    const v2 = db.head()
    const exported = await collectBytes(db.exportArchive({ version: v2 }))

    const forked = await db.forks.promote('f', { by: 'alice' })
    const restored = await db.snapshots.restore('s1')
    await db.promote(v2, { by: 'bob' })
    await db.writeFile('/c.txt', 'three')
    const v3 = db.head()
    await db.snapshots.restore('s1')
    const imported = await db.importArchive(exported, { promote: true, by: 'carol' })
    expect(imported.headPromoted).toBe(true)

    await db.close()
    db = await open()
    const { items, cursor } = await db.headLog()
    expect(cursor).toBeUndefined()
    expect(items.map(({ cause, head, previous, by }) => ({ cause, head, previous, by }))).toEqual([
      { cause: 'import', head: v2, previous: v1, by: 'carol' },
      { cause: 'restore', head: v1, previous: v3, by: undefined },
      { cause: 'promote', head: v2, previous: v1, by: 'bob' },
      { cause: 'restore', head: v1, previous: forked.version, by: undefined },
      { cause: 'fork_promote', head: forked.version, previous: v2, by: 'alice' },
    ])
    expect(restored.previous).toBe(forked.version)
    expect(items.every((i) => i.at === clock.time)).toBe(true)
  })

  it('expectHead refuses with CONFLICT and changes nothing when HEAD moved', async () => {
    await db.writeFile('/a.txt', 'one')
    await db.forks.create('f')
    const base = db.head()
    await db.fork('f').writeFile('/f.txt', 'fork')
    await db.snapshots.create('s')
    await db.writeFile('/b.txt', 'newer on HEAD')
    const head = db.head()

    await rejectsWith(db.forks.promote('f', { expectHead: base }), 'CONFLICT')
    await rejectsWith(db.promote(base, { expectHead: base }), 'CONFLICT')
    await rejectsWith(db.snapshots.restore('s', { expectHead: base }), 'CONFLICT')
    const archive = await collectBytes(db.exportArchive({ version: base }))
    await rejectsWith(db.importArchive(archive, { promote: true, expectHead: base }), 'CONFLICT')
    await rejectsWith(db.promote(base, { expectHead: 'nope' }), 'INVALID_HASH')
    expect(db.head()).toBe(head)
    expect(text(await db.readFile('/b.txt'))).toBe('newer on HEAD')
    expect((await db.headLog()).items).toEqual([])

    const moved = await db.forks.promote('f', { expectHead: head })
    expect(moved.previous).toBe(head)
  })

  it('two promotes racing with the same expectHead: exactly one wins', async () => {
    await db.writeFile('/a.txt', 'one')
    await db.forks.create('x')
    await db.forks.create('y')
    await db.fork('x').writeFile('/x.txt', 'x')
    await db.fork('y').writeFile('/y.txt', 'y')
    await db.writeFile('/head.txt', 'head')
    const head = db.head()
    for (let round = 0; round < 5; round++) {
      const expectHead = db.head()
      const outcomes = await Promise.allSettled([
        db.forks.promote(round % 2 === 0 ? 'x' : 'y', { expectHead }),
        db.promote(head, { expectHead }),
        db.forks.promote(round % 2 === 0 ? 'y' : 'x', { expectHead }),
      ])
      const won = outcomes.filter((o) => o.status === 'fulfilled')
      const lost = outcomes.filter((o) => o.status === 'rejected')
      // When the winner leaves HEAD where it was (promoting HEAD to itself), the others
      // still see their expected HEAD: only a move away from it refuses the rest.
      if (won.length === 1) {
        expect(lost.every((o) => isEngineError(o.reason, 'CONFLICT'))).toBe(true)
      } else {
        const moved = won.filter((o) => (o.value as { version: string }).version !== expectHead)
        expect(moved).toHaveLength(1)
      }
    }
    // Concurrent promotes to different versions from one HEAD: never more than one lands.
    await db.promote(head)
    const expectHead = db.head()
    const racing = await Promise.allSettled([
      db.forks.promote('x', { expectHead }),
      db.forks.promote('y', { expectHead }),
    ])
    expect(racing.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    const loser = racing.find((o) => o.status === 'rejected') as PromiseRejectedResult
    expect(isEngineError(loser.reason, 'CONFLICT')).toBe(true)
  })

  it('pages newest first with a cursor and refuses a bad limit or cursor', async () => {
    await db.writeFile('/a.txt', 'one')
    const a = db.head()
    await db.writeFile('/b.txt', 'two')
    const b = db.head()
    for (let i = 0; i < 5; i++) await db.promote(i % 2 === 0 ? a : b, { by: `n${i}` })
    const first = await db.headLog({ limit: 2 })
    expect(first.items.map((i) => i.by)).toEqual(['n4', 'n3'])
    const second = await db.headLog({ limit: 2, cursor: first.cursor as string })
    expect(second.items.map((i) => i.by)).toEqual(['n2', 'n1'])
    const third = await db.headLog({ limit: 2, cursor: second.cursor as string })
    expect(third.items.map((i) => i.by)).toEqual(['n0'])
    expect(third.cursor).toBeUndefined()
    await rejectsWith(db.headLog({ limit: 0 }), 'INVALID_INPUT')
    await rejectsWith(db.headLog({ limit: 1001 }), 'INVALID_INPUT')
    await rejectsWith(db.headLog({ cursor: '../x' }), 'INVALID_INPUT')
  })

  it('GC keeps a logged previous HEAD for the retention window, then collects it', async () => {
    await db.close()
    // No version log: only the HEAD log can keep the replaced version.
    db = await open({ versionLogLimit: 0, headLogRetentionMs: 30 * DAY })
    const lost = pseudoRandomBytes(200_000, 7)
    await db.writeFile('/a.txt', 'one')
    await db.forks.create('f')
    await db.fork('f').writeFile('/f.txt', 'fork')
    await db.writeFile('/lost.bin', lost)
    const discarded = db.head()
    const moved = await db.forks.promote('f')
    expect(moved.previous).toBe(discarded)

    clock.time += 29 * DAY
    const kept = await db.gc()
    expect(kept.reclaimedBytes).toBeLessThan(1000) // intermediate versions only
    await db.promote(discarded) // the undo works within the window
    expect(Buffer.from(await db.readFile('/lost.bin'))).toEqual(Buffer.from(lost))
    await db.promote(moved.version)

    clock.time += 31 * DAY
    const collected = await db.gc()
    expect(collected.reclaimedBytes).toBeGreaterThan(150_000)
    expect((await db.headLog()).items).toEqual([])
    await db.close()
    db = await open({ versionLogLimit: 0 })
    await rejectsWith(db.promote(discarded), 'NOT_FOUND')
  })

  it('a logged previous HEAD stays promotable after the version log forgot it', async () => {
    await db.close()
    db = await open({ versionLogLimit: 2 })
    await db.writeFile('/a.txt', 'one')
    await db.forks.create('f')
    await db.writeFile('/b.txt', 'two')
    const discarded = db.head()
    await db.forks.promote('f')
    for (let i = 0; i < 5; i++) await db.writeFile(`/n${i}`, String(i))
    await db.gc()
    await db.close()
    db = await open({ versionLogLimit: 2 })
    await db.promote(discarded)
    expect(text(await db.readFile('/b.txt'))).toBe('two')
  })

  it('refuses a bad retention', async () => {
    await db.close()
    await expect(open({ headLogRetentionMs: -1 })).rejects.toThrow(RangeError)
  })
})

async function collectBytes(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  for await (const part of source) parts.push(part)
  return new Uint8Array(Buffer.concat(parts))
}
