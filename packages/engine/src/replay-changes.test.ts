import { MemoryLevel } from 'memory-level'
import { afterEach, describe, expect, it } from 'vitest'
import { collect, openMemoryDatabase, rejectsWith } from '../test/engine-test-kit'
import { unclosedView } from '../test/support/shared-meta-store'
import { Database } from './database'
import type { EngineCore } from './engine-core'
import { CHANGE_RECORD_RANGE, changeRecordKey, parseChangeRecordKey } from './meta/keys'
import { createLevelMetaStore } from './meta/level-meta-store'
import type { SequencedChange } from './changes/database-change'
import { CHANGE_RECORD_LIMIT } from './changes/change-record'
import { changeLogId, replayChanges } from './replay-changes'

const coreOf = (db: Database) => (db as unknown as { core: EngineCore }).core
const replay = (db: Database, after: number) => collect(replayChanges(coreOf(db), { after }))

/** A change as the tests compare it: position, type and paths (or name). */
const brief = (c: SequencedChange) =>
  `${c.seq} ${c.type} ${'entries' in c ? c.entries.map((e) => e.path).join(',') : 'name' in c ? c.name : c.cause}`

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (done()) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const closing: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closing.splice(0)) await close()
})

describe('change positions and replay (embedded)', () => {
  it('stamps each reported change with its version log sequence and replays after one', async () => {
    const { db } = await openMemoryDatabase()
    closing.push(() => db.close())
    const seen: SequencedChange[] = []
    db.onChange((change) => seen.push(change))
    await db.writeFile('/a.txt', 'a')
    await db.snapshots.create('s1', { metadata: { by: 'test' } })
    await db.writeFile('/b.txt', 'b')
    await db.snapshots.restore('s1')
    await db.delete('/a.txt')
    expect(seen.map(brief)).toEqual([
      '1 entries_created /a.txt',
      '2 version_created s1',
      '3 entries_created /b.txt',
      '4 version_promoted restore',
      '5 entries_deleted /a.txt',
    ])
    // The whole log, then a suffix: the same positions and kinds as reported live.
    expect((await replay(db, 0)).map(brief)).toEqual(seen.map(brief))
    const after = await replay(db, 3)
    expect(after.map(brief)).toEqual(seen.slice(3).map(brief))
    expect((await replay(db, 2))[0]).toMatchObject({ type: 'entries_created', seq: 3 })
    expect(await replay(db, 5)).toEqual([])
    expect(changeLogId(coreOf(db))).toMatch(/^[0-9a-z]+$/)
  })

  it('replays what was reported live: files in a new directory, a folded group per write', async () => {
    const { db } = await openMemoryDatabase()
    closing.push(() => db.close())
    const seen: SequencedChange[] = []
    db.onChange((change) => seen.push(change))
    await db.writeFile('/order/0.txt', '0')
    await Promise.all([1, 2, 3, 4].map((i) => db.writeFile(`/order/${i}.txt`, `${i}`)))
    expect(seen.map(brief)[0]).toBe('1 entries_created /order/0.txt')
    expect(seen).toHaveLength(5)
    expect(await replay(db, 0)).toEqual(seen)
  })

  it('replays a move without its record (an older commit) as the diff of its versions', async () => {
    const { db, level } = await openMemoryDatabase()
    closing.push(() => db.close())
    await db.writeFile('/order/0.txt', '0')
    await db.writeFile('/order/1.txt', '1')
    const metaSpace = level.sublevel<string, Uint8Array>('meta', { valueEncoding: 'view' })
    await metaSpace.del(changeRecordKey(1))
    expect((await replay(db, 0)).map(brief)).toEqual([
      '1 entries_created /order',
      '2 entries_created /order/1.txt',
    ])
  })

  it('answers NOT_FOUND once the log no longer holds the position, or not yet', async () => {
    const { db, level } = await openMemoryDatabase(1_700_000_000_000, { versionLogLimit: 3 })
    closing.push(() => db.close())
    for (let i = 0; i < 6; i++) await db.writeFile(`/f${i}.txt`, `${i}`)
    // The change records are trimmed with the log, in the same batches.
    const records: number[] = []
    const metaSpace = level.sublevel<string, Uint8Array>('meta', { valueEncoding: 'view' })
    for await (const key of metaSpace.keys(CHANGE_RECORD_RANGE))
      records.push(parseChangeRecordKey(key) as number)
    expect(records).toEqual([4, 5, 6])
    await rejectsWith(replay(db, 1), 'NOT_FOUND')
    expect((await replay(db, 3)).map((c) => c.seq)).toEqual([4, 5, 6])
    await rejectsWith(replay(db, 7), 'NOT_FOUND')
    await rejectsWith(replay(db, -1), 'INVALID_INPUT')
  })
})

describe('change positions and replay (shared)', () => {
  it('gives the same positions on both nodes, and replays the same changes on either', async () => {
    const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    const meta = createLevelMetaStore(level)
    const a = await Database.open({ meta: unclosedView(meta), shared: true, sharedPollMs: 5 })
    const b = await Database.open({ meta: unclosedView(meta), shared: true, sharedPollMs: 5 })
    closing.push(async () => {
      await a.close()
      await b.close()
      await meta.close()
    })
    const onA: SequencedChange[] = []
    const onB: SequencedChange[] = []
    a.onChange((change) => onA.push(change))
    b.onChange((change) => onB.push(change))
    await a.writeFile('/a1.txt', 'one')
    await b.writeFile('/b1.txt', 'two')
    await a.snapshots.create('s')
    await b.delete('/a1.txt')
    await until('four changes on both', () => onA.length >= 4 && onB.length >= 4)
    expect(onA.map(brief)).toEqual(onB.map(brief))
    expect(onA.map((c) => c.seq)).toEqual([1, 2, 3, 4])
    expect(changeLogId(coreOf(a))).toBe(changeLogId(coreOf(b)))
    // Replayed on the node that did not write them, after a position the other reported.
    expect((await replay(b, 1)).map(brief)).toEqual(onA.slice(1).map(brief))
    expect((await replay(a, 2)).map(brief)).toEqual(onB.slice(2).map(brief))
  })

  it('reports past the record limit the diff of the move, on the committing node too', async () => {
    const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    const meta = createLevelMetaStore(level)
    const a = await Database.open({ meta: unclosedView(meta), shared: true, sharedPollMs: 5 })
    const b = await Database.open({ meta: unclosedView(meta), shared: true, sharedPollMs: 5 })
    closing.push(async () => {
      await a.close()
      await b.close()
      await meta.close()
    })
    const onA: SequencedChange[] = []
    const onB: SequencedChange[] = []
    a.onChange((change) => onA.push(change))
    b.onChange((change) => onB.push(change))
    const count = CHANGE_RECORD_LIMIT + 1
    const files = Array.from({ length: count }, (_, i) => ({
      path: `/bulk/d${i % 100}/f${i}.txt`,
      data: `${i}`,
    }))
    expect((await a.writeFiles(files)).versions).toBe(1)
    await a.writeFile('/bulk/after.txt', 'after')
    await until('both changes on both', () => onA.length >= 2 && onB.length >= 2)
    // The diff: the new directory, not its 10,001 files; then the recorded write.
    expect(onA.map(brief)).toEqual(['1 entries_created /bulk', '2 entries_created /bulk/after.txt'])
    expect(onB).toEqual(onA)
    expect((await replay(b, 0)).map(brief)).toEqual(onA.map(brief))
  })
})
