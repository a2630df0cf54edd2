import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collect, openMemoryDatabase, rejectsWith } from '../../test/engine-test-kit'
import type { Database } from '../database'
import { createHasher } from '../hashing/create-hasher'
import type { Hasher } from '../hashing/hasher'
import type { DirEntry, FileObject, TreeObject } from '../objects/tree-objects'
import { chunkFrame, concat, encodeArchive, objectFrame } from '../../test/support/archive-samples'
import type { SampleFrame } from '../../test/support/archive-samples'

let db: Database
let kit: Awaited<ReturnType<typeof openMemoryDatabase>>
let hasher: Hasher
let valid: Uint8Array

/** What must not move when an import fails: version, counts, sizes and stored objects. */
async function fingerprint() {
  const { counts, sizes } = db.stats()
  return {
    head: db.head(),
    counts,
    sizes,
    objects: await kit.countKeys('obj'),
    chunks: await kit.countKeys('chunk'),
    refs: await kit.countKeys('ref'),
  }
}

beforeAll(async () => {
  hasher = await createHasher('sha256')
  const source = await openMemoryDatabase()
  await source.db.writeFile('/a.txt', 'alpha')
  await source.db.writeFile('/dir/b.txt', 'bravo')
  await source.db.symlink('/dir/link', '/a.txt')
  valid = concat(await collect(source.db.exportArchive()))
  await source.db.close()
  kit = await openMemoryDatabase()
  db = kit.db
  await db.writeFile('/existing.txt', 'must survive')
})
afterAll(() => db.close())

describe('import never trusts its input', () => {
  it('refuses the archive cut at every offset, leaving the database unchanged', async () => {
    const before = await fingerprint()
    for (let end = 0; end < valid.length; end++) {
      await rejectsWith(db.importArchive(valid.slice(0, end)), 'INVALID_ARCHIVE')
    }
    expect(await fingerprint()).toEqual(before)
  })

  it('refuses the archive with any single byte flipped', async () => {
    const before = await fingerprint()
    for (let at = 0; at < valid.length; at++) {
      const damaged = valid.slice()
      damaged[at] = (damaged[at] as number) ^ (1 << (at % 8))
      await rejectsWith(db.importArchive(damaged), 'INVALID_ARCHIVE')
    }
    expect(await fingerprint()).toEqual(before)
  })

  it('refuses random junk, with or without a plausible header', async () => {
    const before = await fingerprint()
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 400 }),
        fc.boolean(),
        async (junk, keepHeader) => {
          const input = keepHeader ? concat([valid.slice(0, 80), junk]) : junk
          await rejectsWith(db.importArchive(input), 'INVALID_ARCHIVE')
        },
      ),
      { numRuns: 300 },
    )
    expect(await fingerprint()).toEqual(before)
  })
})

/** Builders of well-hashed but dishonest archives. */
function file(
  content: string,
  overrides: Partial<FileObject> = {},
): { frames: SampleFrame[]; entry: (name: string) => DirEntry } {
  const chunk = chunkFrame(hasher, new TextEncoder().encode(content))
  const ids = hasher.createStream()
  ids.update(new TextEncoder().encode('content:'))
  ids.update(chunk.hash)
  const object: FileObject = {
    type: 'file',
    size: chunk.bytes.length,
    contentType: 'text/plain',
    contentHash: ids.digest(),
    createdAt: 1,
    updatedAt: 1,
    metadata: '',
    chunks: [{ hash: chunk.hash, size: chunk.bytes.length }],
    ...overrides,
  }
  const frame = objectFrame(hasher, object)
  return {
    frames: [chunk, frame],
    entry: (name) => ({
      name,
      kind: 'file',
      hash: frame.hash,
      size: object.size,
      createdAt: 1,
      updatedAt: 1,
      files: 0,
      dirs: 0,
      links: 0,
    }),
  }
}

function leaf(entries: DirEntry[]): SampleFrame {
  return objectFrame(hasher, { type: 'leaf', entries } satisfies TreeObject)
}

describe('import checks what the frames say', () => {
  async function refuses(frames: SampleFrame[], why: RegExp, header = {}) {
    const before = await fingerprint()
    const err = await rejectsWith(
      db.importArchive(encodeArchive(hasher, frames, header)),
      'INVALID_ARCHIVE',
    )
    expect(err.message).toMatch(why)
    expect(await fingerprint()).toEqual(before)
  }

  it('accepts an honest hand-made archive (so the refusals below are about the lie)', async () => {
    const f = file('hello')
    const result = await db.importArchive(
      encodeArchive(hasher, [...f.frames, leaf([f.entry('ok.txt')])]),
    )
    expect(result.filesImported).toBe(1)
  })

  it.each(['..', '.', '', 'a/b', '/abs', 'nul\u0000byte', 'tab\tname', 'x'.repeat(256)])(
    'refuses the hostile name %j',
    async (name) => {
      const f = file('hello')
      await refuses([...f.frames, leaf([f.entry(name)])], /unsafe entry name/)
    },
  )

  it('refuses a target that is not in the archive or the database', async () => {
    const f = file('hello')
    await refuses([...f.frames, leaf([f.entry('a')])], /target version/, {
      target: new Uint8Array(32).fill(9),
    })
  })

  it('refuses a tree missing a referenced object or chunk', async () => {
    const f = file('never stored anywhere')
    const [chunk, object] = f.frames as [SampleFrame, SampleFrame]
    await refuses([chunk, leaf([f.entry('a')])], /neither in the archive nor in the database/)
    await refuses([object, leaf([f.entry('a')])], /neither in the archive nor in the database/)
  })

  it('refuses lying sizes, kinds, totals, order and content hashes', async () => {
    const f = file('hello')
    const g = file('world')
    await refuses([...f.frames, leaf([{ ...f.entry('a'), size: 99 }])], /does not match its file/)
    await refuses(
      [...f.frames, leaf([{ ...f.entry('a'), kind: 'symlink' }])],
      /symlink pointing at a file/,
    )
    await refuses(
      [...f.frames, ...g.frames, leaf([g.entry('b'), f.entry('a')])],
      /strict name order/,
    )
    await refuses([...f.frames, leaf([f.entry('a'), f.entry('a')])], /strict name order/)
    const sub = leaf([f.entry('a')])
    const dirEntry: DirEntry = {
      name: 'd',
      kind: 'directory',
      hash: sub.hash,
      size: 5,
      createdAt: 1,
      updatedAt: 1,
      files: 2,
      dirs: 0,
      links: 0,
    }
    await refuses([...f.frames, sub, leaf([dirEntry])], /totals of its directory/)
    const bigger = file('hello', { size: 6 })
    await refuses([...bigger.frames, leaf([bigger.entry('a')])], /size 6 but its chunks hold 5/)
    const wrongHash = file('hello', { contentHash: new Uint8Array(32) })
    await refuses([...wrongHash.frames, leaf([wrongHash.entry('a')])], /content hash/)
    const badMeta = file('hello', { metadata: '{not json' })
    await refuses([...badMeta.frames, leaf([badMeta.entry('a')])], /metadata/)
  })

  it('refuses a stored chunk claimed with another size than it has', async () => {
    const honest = file('stored here')
    await db.importArchive(encodeArchive(hasher, [...honest.frames, leaf([honest.entry('s')])]))
    const [chunk] = honest.frames as [SampleFrame]
    // The chunk is left out (the database has it), and the file claims it holds 12 bytes.
    const lie = file('stored here', { size: 12, chunks: [{ hash: chunk.hash, size: 12 }] })
    const [, object] = lie.frames as [SampleFrame, SampleFrame]
    await refuses([object, leaf([lie.entry('s')])], /stored with 11 bytes, not 12/)
  })

  it('refuses internal pages whose children do not add up', async () => {
    const f = file('hello')
    const g = file('world')
    const left = leaf([f.entry('a')])
    const right = leaf([g.entry('b')])
    const item = (frame: SampleFrame, key: string, bytes: number) => ({
      key,
      hash: frame.hash,
      entries: 1,
      files: 1,
      dirs: 0,
      links: 0,
      bytes,
    })
    const node = (items: ReturnType<typeof item>[], height = 1) =>
      objectFrame(hasher, { type: 'node', height, items })
    const frames = [...f.frames, ...g.frames, left, right]
    await refuses([...frames, node([item(right, 'b', 5), item(left, 'a', 5)])], /out of order/)
    await refuses([...frames, node([item(left, 'z', 5), item(right, 'b', 5)])], /out of order/)
    await refuses([...frames, node([item(left, 'a', 4), item(right, 'b', 5)])], /totals are wrong/)
    await refuses([...frames, node([item(left, 'a', 5), item(right, 'b', 5)], 2)], /height/)
    const honest = await db.importArchive(
      encodeArchive(hasher, [...frames, node([item(left, 'a', 5), item(right, 'b', 5)])]),
    )
    expect(honest.filesImported).toBe(2)
  })
})
