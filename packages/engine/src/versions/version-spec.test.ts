import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collect, rejectsWith, text } from '../../test/engine-test-kit'
import { Database } from '../database'

let dir: string
let db: Database

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-version-spec-'))
  db = await Database.open({ path: dir })
})

afterEach(async () => {
  await db.close()
  await rm(dir, { recursive: true, force: true })
})

describe('version specs', () => {
  it('read HEAD as the current version wherever a version is named', async () => {
    await db.writeFile('/a.txt', 'one')
    const first = db.head()
    await db.writeFile('/b.txt', 'two')

    expect(text(await db.at('HEAD').readFile('/b.txt'))).toBe('two')
    expect(text(await db.at({ version: 'HEAD' }).readFile('/b.txt'))).toBe('two')
    expect(text(await db.at({ snapshot: 'HEAD' }).readFile('/b.txt'))).toBe('two')
    expect((await db.at('HEAD').stat('/')).hash).toBe(db.head())

    const diff = await collect(db.diffEntries({ from: first, to: 'HEAD' }))
    expect(diff.map((d) => [d.change, d.path])).toEqual([['created', '/b.txt']])
    expect(await collect(db.diffEntries({ from: 'HEAD' }))).toEqual([])

    expect((await db.forks.create('f', { base: 'HEAD' })).version).toBe(db.head())
    const patch = Buffer.concat(await collect(db.diffArchive({ from: first, to: 'HEAD' })))
    expect(patch.length).toBeGreaterThan(0)
    const exported = Buffer.concat(await collect(db.exportArchive({ version: 'HEAD' })))
    expect(exported.length).toBeGreaterThan(0)

    // A view of HEAD is pinned when made: later writes do not show through it.
    const pinned = db.at('HEAD')
    await db.writeFile('/c.txt', 'three')
    await rejectsWith(pinned.stat('/c.txt'), 'NOT_FOUND')
  })

  it('refuses a new snapshot named HEAD, which would be shadowed', async () => {
    await rejectsWith(db.snapshots.create('HEAD'), 'INVALID_NAME')
    await db.snapshots.create('head')
    expect((await db.snapshots.list()).map((s) => s.name)).toEqual(['head'])
  })

  it('still refuses an unknown snapshot and a malformed hash', async () => {
    // `at` throws at once: resolved names are checked before any read.
    const at = (spec: Parameters<Database['at']>[0]) => Promise.resolve().then(() => db.at(spec))
    await rejectsWith(at({ snapshot: 'nope' }), 'NOT_FOUND')
    await rejectsWith(at({ version: 'head' }), 'INVALID_HASH')
  })
})
