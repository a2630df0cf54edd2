import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rejectsWith, text } from '../../test/engine-test-kit'
import { unclosedView } from '../../test/support/shared-meta-store'
import type { SequencedChange } from '../changes/database-change'
import { Database } from '../database'
import { createLevelMetaStore } from '../meta/level-meta-store'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

describe('peer pins', () => {
  let dir: string
  let db: Database
  const open = (versionLogLimit = 2) => Database.open({ path: dir, versionLogLimit })
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-peer-pins-'))
    db = await open()
  })
  afterEach(async () => {
    await db.close().catch(() => undefined)
    await rm(dir, { recursive: true, force: true })
  })

  it('sets, gets, lists and deletes pins by peer name', async () => {
    await db.writeFile('/a', '1')
    const v1 = db.head()
    await db.writeFile('/a', '2')
    const v2 = db.head()
    expect(await db.peerPins.get('office')).toBeUndefined()
    expect(await db.peerPins.list()).toEqual([])

    await db.peerPins.set('office', v1)
    await db.peerPins.set('cloud', v2.toUpperCase())
    expect(await db.peerPins.get('office')).toBe(v1)
    expect(await db.peerPins.list()).toEqual([
      { name: 'cloud', version: v2 },
      { name: 'office', version: v1 },
    ])
    await db.peerPins.set('office', v2)
    expect(await db.peerPins.get('office')).toBe(v2)

    await db.peerPins.delete('office')
    await db.peerPins.delete('office') // absent: no error
    await db.peerPins.delete('never-set')
    expect(await db.peerPins.get('office')).toBeUndefined()
    expect(await db.peerPins.list()).toEqual([{ name: 'cloud', version: v2 }])
  })

  it('refuses bad names, malformed hashes, and versions that are not stored', async () => {
    await db.writeFile('/dir/file', 'x')
    await rejectsWith(db.peerPins.set('-bad', db.head()), 'INVALID_NAME')
    await rejectsWith(db.peerPins.set('a/b', db.head()), 'INVALID_NAME')
    await rejectsWith(db.peerPins.get('x'.repeat(200)), 'INVALID_NAME')
    await rejectsWith(db.peerPins.delete(''), 'INVALID_NAME')
    await rejectsWith(db.peerPins.set('office', 'xyz'), 'INVALID_HASH')
    await rejectsWith(db.peerPins.set('office', 'ab'.repeat(32)), 'NOT_FOUND')
    // A directory's hash is stored, but it is not a version.
    const dirHash = (await db.stat('/dir')).hash
    await rejectsWith(db.peerPins.set('office', dirHash), 'NOT_FOUND')
    expect(await db.peerPins.list()).toEqual([])
  })

  it('is no snapshot, fork, count, history point or change', async () => {
    await db.close()
    db = await open(100)
    await db.writeFile('/a', '1')
    await db.snapshots.create('s')
    await db.forks.create('f')
    const changes: SequencedChange[] = []
    const off = db.onChange((change) => void changes.push(change))
    const before = db.stats().counts
    await db.peerPins.set('office', db.head())
    await db.peerPins.set('f', db.head()) // same name as a fork: another kind of ref
    expect((await db.snapshots.list()).map((s) => s.name)).toEqual(['s'])
    expect((await db.forks.list()).map((f) => f.name)).toEqual(['f'])
    expect(db.stats().counts).toEqual(before)
    expect((await db.history('/a')).map((h) => h.snapshot ?? h.changeType)).toEqual(['s', 'added'])
    await db.peerPins.delete('office')
    await db.writeFile('/b', '2') // a change after them, so the feed has caught up
    off()
    expect(changes.map((c) => c.type)).toEqual(['entries_created'])
    // Replayed (as after a reconnect) from the version log, where the pins' moves are.
    const replayed: string[] = []
    for await (const change of db.replayChanges({ after: 0 })) replayed.push(change.type)
    expect(replayed).toEqual([
      'entries_created',
      'version_created',
      'version_created',
      'entries_created',
    ])
  })

  it('keeps a pinned version through GC, and lets it go once unpinned', async () => {
    await db.writeFile('/doc', pseudoRandomBytes(40_000, 1))
    const pinned = db.head()
    await db.peerPins.set('office', pinned)
    for (const name of ['/x', '/y', '/z']) await db.writeFile(name, name)
    await db.delete('/doc')
    for (const name of ['/p', '/q', '/r']) await db.writeFile(name, name)
    // The version log (2 moves) no longer holds it: only the pin does.
    await db.gc()
    expect(Buffer.from(await db.at(pinned).readFile('/doc'))).toEqual(
      Buffer.from(pseudoRandomBytes(40_000, 1)),
    )
    await db.peerPins.delete('office')
    for (const name of ['/s', '/t']) await db.writeFile(name, name)
    const collected = await db.gc()
    expect(collected.garbageEntries).toBeGreaterThan(0)
    await rejectsWith(db.at(pinned).readFile('/doc'), 'NOT_FOUND')
  })

  it('survives a reopen', async () => {
    await db.writeFile('/a', 'kept')
    const version = db.head()
    await db.peerPins.set('office', version)
    await db.writeFile('/a', 'later')
    await db.close()
    db = await open()
    expect(await db.peerPins.get('office')).toBe(version)
    expect(text(await db.at(version).readFile('/a'))).toBe('kept')
  })

  it('is seen by every node of a shared database, and reported by none', async () => {
    const level = new ClassicLevel<string, Uint8Array>(join(dir, 'shared'), {
      valueEncoding: 'view',
    })
    await level.open()
    const meta = createLevelMetaStore(level)
    const a = await Database.open({ meta: unclosedView(meta), shared: true, sharedPollMs: 10 })
    const b = await Database.open({ meta: unclosedView(meta), shared: true, sharedPollMs: 10 })
    try {
      await a.writeFile('/a', '1')
      const seen: SequencedChange[] = []
      const off = b.onChange((change) => void seen.push(change))
      await a.peerPins.set('office', a.head())
      expect(await b.peerPins.get('office')).toBe(a.head())
      expect(await b.peerPins.list()).toEqual([{ name: 'office', version: a.head() }])
      await b.peerPins.delete('office')
      expect(await a.peerPins.get('office')).toBeUndefined()
      await a.writeFile('/marker', 'x')
      const deadline = Date.now() + 10_000
      while (!seen.some((c) => c.version === a.head()) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10))
      off()
      // Only writes (a's first one may still arrive); nothing for the pin's set or delete.
      expect(seen.filter((c) => c.type !== 'entries_created')).toEqual([])
      expect(seen.at(-1)).toMatchObject({ version: a.head(), entries: [{ path: '/marker' }] })
    } finally {
      await a.close()
      await b.close()
      await meta.close()
    }
  })
})
