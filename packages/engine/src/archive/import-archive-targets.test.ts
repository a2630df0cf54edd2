import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collect, rejectsWith, text } from '../../test/engine-test-kit'
import { concat } from '../../test/support/archive-samples'
import type { SequencedChange } from '../changes/database-change'
import { Database } from '../database'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

async function archiveBytes(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  return concat(await collect(stream))
}

/** What must not move when an import is refused. */
async function fingerprint(db: Database) {
  const { counts, sizes } = db.stats()
  return {
    head: db.head(),
    counts,
    sizes,
    forks: await db.forks.list(),
    snapshots: await db.snapshots.list(),
    pins: await db.peerPins.list(),
  }
}

describe('importArchive with a peer pin or into a fork', () => {
  let dir: string
  let source: Database
  let db: Database
  const open = (name: string) => Database.open({ path: join(dir, name), versionLogLimit: 3 })
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-import-targets-'))
    source = await open('source')
    db = await open('db')
  })
  afterEach(async () => {
    await source.close().catch(() => undefined)
    await db.close().catch(() => undefined)
    await rm(dir, { recursive: true, force: true })
  })

  /** A version of `source` with a big file, and its export. */
  async function exported(seed: number) {
    await source.writeFile('/big.bin', pseudoRandomBytes(200_000, seed))
    await source.writeFile('/note', `seed ${seed}`)
    return { version: source.head(), bytes: await archiveBytes(source.exportArchive()) }
  }

  it('moves the pin with the import, and keeps the version by the pin alone', async () => {
    const { version, bytes } = await exported(1)
    const result = await db.importArchive(bytes, { force: true, pin: 'office' })
    expect(result).toMatchObject({ versionHash: version, headPromoted: false })
    expect(await db.peerPins.get('office')).toBe(version)
    expect(text(await db.at(version).readFile('/note'))).toBe('seed 1')
    // No import ref holds it besides the pin: once unpinned (and out of the log) GC takes it.
    for (const name of ['/a', '/b', '/c', '/d']) await db.writeFile(name, name)
    const chunks = db.stats().counts.chunks
    await db.gc()
    expect(db.stats().counts.chunks).toBe(chunks)
    expect(text(await db.at(version).readFile('/note'))).toBe('seed 1')
    await db.peerPins.delete('office')
    for (const name of ['/e', '/f', '/g']) await db.writeFile(name, name)
    await db.gc()
    expect(db.stats().counts.chunks).toBeLessThan(chunks)
    await rejectsWith(db.at(version).readFile('/note'), 'NOT_FOUND')
  })

  it('promotes with expectHead and moves the pin in the same commit, durably', async () => {
    const first = await exported(1)
    await db.importArchive(first.bytes, { force: true, promote: true, pin: 'office' })
    const second = await exported(2)
    const patch = await archiveBytes(source.diffArchive({ from: first.version }))
    const result = await db.importArchive(patch, {
      force: true,
      promote: true,
      expectHead: first.version,
      by: 'peer:office',
      pin: 'office',
    })
    expect(result).toMatchObject({ versionHash: second.version, headPromoted: true })
    expect(db.head()).toBe(second.version)
    expect(await db.peerPins.get('office')).toBe(second.version)
    const { items } = await db.headLog()
    expect(items[0]).toMatchObject({
      head: second.version,
      previous: first.version,
      cause: 'import',
      by: 'peer:office',
    })
    await db.close()
    db = await open('db')
    expect(db.head()).toBe(second.version)
    expect(await db.peerPins.get('office')).toBe(second.version)
  })

  it('refuses a promote whose expectHead no longer holds, moving neither HEAD nor the pin', async () => {
    const first = await exported(1)
    await db.importArchive(first.bytes, { force: true, promote: true, pin: 'office' })
    await db.writeFile('/local', 'edit') // HEAD moved since the last sync
    const second = await exported(2)
    const patch = await archiveBytes(source.diffArchive({ from: first.version }))
    const before = await fingerprint(db)
    await rejectsWith(
      db.importArchive(patch, {
        force: true,
        promote: true,
        expectHead: first.version,
        pin: 'office',
      }),
      'CONFLICT',
    )
    expect(await fingerprint(db)).toEqual(before)
    expect(await db.peerPins.get('office')).toBe(first.version)
    await rejectsWith(db.at(second.version).readFile('/note'), 'NOT_FOUND')
  })

  it('creates a fork at the imported version, as forks.create does, and reports it', async () => {
    await db.writeFile('/local', 'mine')
    const head = db.head()
    const { version, bytes } = await exported(1)
    const changes: SequencedChange[] = []
    const off = db.onChange((change) => void changes.push(change))
    const result = await db.importArchive(bytes, {
      force: true,
      fork: 'peer-office-0123456789ab',
      pin: 'office',
    })
    off()
    expect(result).toMatchObject({ versionHash: version, headPromoted: false })
    expect(db.head()).toBe(head)
    expect(await db.forks.get('peer-office-0123456789ab')).toEqual({
      name: 'peer-office-0123456789ab',
      version,
      base: version,
      createdAt: expect.any(Number),
    })
    expect(await db.peerPins.get('office')).toBe(version)
    expect(text(await db.fork('peer-office-0123456789ab').readFile('/note'))).toBe('seed 1')
    expect(changes).toEqual([
      {
        type: 'version_created',
        at: expect.any(Number),
        fork: 'peer-office-0123456789ab',
        version,
        kind: 'fork',
        name: 'peer-office-0123456789ab',
        seq: expect.any(Number),
      },
    ])
    expect(db.stats().counts).toMatchObject({ forks: 1, snapshots: 0 })
    // A reconnecting listener replays the same change.
    const replayed: SequencedChange[] = []
    for await (const c of db.replayChanges({ after: (changes[0]?.seq ?? 1) - 1 })) replayed.push(c)
    expect(replayed.filter((c) => c.type === 'version_created')).toEqual(changes)
  })

  it('refuses a fork with promote, and malformed fork or pin names, before reading', async () => {
    const { bytes } = await exported(1)
    const before = await fingerprint(db)
    await rejectsWith(db.importArchive(bytes, { promote: true, fork: 'f' }), 'INVALID_INPUT')
    await rejectsWith(db.importArchive(bytes, { fork: '-f' }), 'INVALID_NAME')
    await rejectsWith(db.importArchive(bytes, { fork: 'a/b' }), 'INVALID_NAME')
    await rejectsWith(db.importArchive(bytes, { pin: '' }), 'INVALID_NAME')
    await rejectsWith(db.importArchive(bytes, { pin: 'x'.repeat(129) }), 'INVALID_NAME')
    expect(await fingerprint(db)).toEqual(before)
  })

  it('refuses a fork name that is taken, applying nothing', async () => {
    await db.writeFile('/local', 'mine')
    await db.forks.create('taken')
    const { version, bytes } = await exported(1)
    const before = await fingerprint(db)
    await rejectsWith(db.importArchive(bytes, { force: true, fork: 'taken', pin: 'p' }), 'CONFLICT')
    expect(await fingerprint(db)).toEqual(before)
    await rejectsWith(db.at(version).readFile('/note'), 'NOT_FOUND')
  })

  it('refuses a fork name taken while the archive was being read, applying nothing', async () => {
    await db.writeFile('/local', 'mine')
    const { version, bytes } = await exported(1)
    const before = await fingerprint(db)
    let creating: Promise<unknown> | undefined
    await rejectsWith(
      db.importArchive(bytes, {
        force: true,
        fork: 'raced',
        pin: 'p',
        onProgress: () => {
          // Frames are all read and staged, the commit not yet formed.
          creating ??= db.forks.create('raced')
        },
      }),
      'CONFLICT',
    )
    const raced = await (creating as Promise<{ version: string }>)
    expect(raced.version).toBe(before.head)
    expect(await fingerprint(db)).toEqual({
      ...before,
      counts: { ...before.counts, forks: 1 },
      forks: [await db.forks.get('raced')],
    })
    expect(await db.peerPins.get('p')).toBeUndefined()
    await rejectsWith(db.at(version).readFile('/note'), 'NOT_FOUND')
  })
})
