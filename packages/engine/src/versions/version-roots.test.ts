import { describe, expect, it } from 'vitest'
import { collect, openMemoryDatabase, rejectsWith } from '../../test/engine-test-kit'

describe('version roots', () => {
  it('refuses a directory hash wherever a version is named, and accepts real roots', async () => {
    const { db } = await openMemoryDatabase()
    await db.writeFile('/eng/secret/s.txt', 'eng secret')
    await db.writeFile('/secret/s.txt', 'top secret')
    const first = db.head()
    const eng = (await db.stat('/eng')).hash
    await db.writeFile('/later.txt', 'later')
    await db.snapshots.create('snap')

    await rejectsWith(db.at(eng).readFile('/secret/s.txt'), 'NOT_FOUND')
    await rejectsWith(db.at({ version: eng }).stat('/'), 'NOT_FOUND')
    await rejectsWith(collect(db.at(eng).list('/')), 'NOT_FOUND')
    await rejectsWith(db.at(eng).query({ path: '/' }), 'NOT_FOUND')
    await rejectsWith(db.forks.create('f', { base: eng }), 'NOT_FOUND')
    await rejectsWith(collect(db.diffEntries({ from: eng })), 'NOT_FOUND')
    await rejectsWith(collect(db.exportArchive({ version: eng })), 'NOT_FOUND')
    await rejectsWith(db.promote(eng), 'NOT_FOUND')
    await rejectsWith(db.restoreFile('/secret', { version: eng }), 'NOT_FOUND')
    expect((await db.forks.list()).length).toBe(0)

    // An earlier HEAD (in the version log), HEAD itself and a snapshot's root are versions.
    expect(new TextDecoder().decode(await db.at(first).readFile('/secret/s.txt'))).toBe(
      'top secret',
    )
    expect((await db.at(db.head()).stat('/later.txt')).size).toBe(5)
    expect((await db.forks.create('f', { base: first })).version).toBe(first)
    await db.close()
  })
})
